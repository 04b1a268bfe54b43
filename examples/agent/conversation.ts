import type { ChatRequest, ModelTurn } from './scripted-model';
import type { Turn } from './agent';

/** The user's messages: asked on Telegram, confirmed later on the web. */
export const USER_TURNS: readonly Turn[] = [
  {
    channel: 'telegram',
    sessionId: 'telegram-1',
    text: 'Peux-tu relancer Delphine pour la facture Q2 ?',
  },
  { channel: 'web', sessionId: 'web-1', text: 'Oui, tu peux envoyer la relance.' },
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The first action id the last tool answer holds (what a model would read back from it). */
function lastActionId(request: ChatRequest): string {
  const answer = [...request.messages].reverse().find((message) => message.role === 'tool');
  const id = UUID.exec(answer?.content ?? '')?.[0];
  if (id === undefined) throw new Error('No action id in the last tool answer');
  return id;
}

/** What the scripted model answers, request after request. */
export const MODEL_SCRIPT: ReadonlyArray<(request: ChatRequest) => ModelTurn> = [
  () => ({
    call: 'propose_action',
    args: {
      tool: 'send_email',
      target: 'delphine@acme.fr',
      summary: 'Relance facture Q2',
      channel: 'telegram',
    },
  }),
  () => ({ say: 'J’ai préparé la relance de Delphine pour la facture Q2 : je l’envoie ?' }),
  () => ({ call: 'list_pending_actions', args: {} }),
  (request) => ({
    call: 'update_action',
    args: { actionId: lastActionId(request), transition: 'confirm', channel: 'web' },
  }),
  () => ({ say: 'C’est confirmé : la relance part.' }),
];
