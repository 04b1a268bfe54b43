import { randomUUID } from 'node:crypto';

const TEXTS = [
  "Rappelle-moi d'appeler le plombier demain matin avant 9 h, c'est pour la fuite sous l'évier.",
  'Can you find a table for four on Friday evening, somewhere quiet near the office?',
  'Je préfère les réponses courtes, et plutôt en français quand on parle du travail.',
  'Book the 7:45 train to Lyon on Tuesday and send the ticket to my work address, please.',
];

/** A message as an agent service posts it after a user's turn on Telegram. */
export function messageBody(index: number) {
  return {
    messageId: randomUUID(),
    sessionId: `s${1 + (index % 3)}`,
    role: 'user' as const,
    channel: 'telegram',
    agentId: 'assistant-main',
    text: `${TEXTS[index % TEXTS.length]!} (${index})`,
  };
}
