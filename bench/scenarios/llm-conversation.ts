const USER_TURNS = [
  "Je cherche un cadeau pour l'anniversaire de ma sœur, elle adore la randonnée et les livres.",
  'Peux-tu me rappeler le rendez-vous chez le garagiste jeudi à 14 h ?',
  "On part à Lisbonne en avril avec les enfants, il faudrait un hôtel près d'une station de métro.",
  "I'd rather have short answers, bullet points are fine.",
  'Ajoute le lait, les pommes et le café à la liste de courses.',
  'What did I say about the budget for the kitchen renovation?',
];
const ASSISTANT_TURNS = [
  'Voici trois idées : un guide des GR de Corse, une gourde isotherme et un carnet de randonnée. Laquelle te plaît ?',
  "C'est noté, je te le rappelle jeudi à 13 h 30.",
  'I found two hotels near Baixa-Chiado, both with family rooms; do you want prices for both?',
  'Understood, I will keep my answers short.',
  'Ajouté : lait, pommes, café.',
  'You said about 12,000 euros, with the worktop as the main expense.',
];

/** Turn `index` of a conversation: what the user says and what the assistant answers. */
export function conversationTurn(index: number) {
  return [
    { role: 'user', text: `${USER_TURNS[index % USER_TURNS.length]!} (${index + 1})` },
    { role: 'assistant', text: ASSISTANT_TURNS[index % ASSISTANT_TURNS.length]! },
  ] as const;
}
