import { pick } from './soak-users';

/**
 * What the virtual users say: mostly sentences the offline extractor picks up (preferences, facts,
 * identity, ongoing work, commitments; confidences 0.7 to 0.9, so that the policy's threshold sends
 * some to the admin queue), mixed with small talk it must ignore.
 */
const REMEMBERED = [
  'Je préfère les réponses courtes et en français.',
  "Je m'appelle {name}.",
  "J'habite à {city} depuis trois ans.",
  'Je suis CTO chez StartupCorp et nous construisons une plateforme SaaS.',
  'Au fait, je suis allergique aux arachides.',
  "Rappelle-moi d'appeler {name} vendredi.",
  'Nous lançons notre produit le mois prochain.',
  'Tu peux me tutoyer.',
  "j'aime beaucoup le jazz et la randonnée",
  'Je travaille sur la migration vers Kubernetes en ce moment.',
  'I prefer short answers with bullet points.',
  'My name is {name}.',
  'I work at Acme as a product designer.',
  "I'm allergic to shellfish.",
  'Always answer in English please.',
  'I have a dentist appointment next Tuesday at 10am.',
  "I'm currently working on the Q3 budget.",
  'I live in {city}.',
];

const SMALL_TALK = [
  'Quel temps fait-il demain ?',
  'Thanks, that works.',
  'Ok merci, on verra plus tard.',
  'Can you summarize the last email?',
];

const ASSISTANT_REPLIES = [
  "D'accord, je m'en souviendrai.",
  'Noted. Anything else?',
  'Voici un résumé en trois points.',
  "Sure, I've drafted the email for you to review.",
];

const NAMES = ['Camille', 'Jordan', 'Delphine', 'Malik', 'Inès', 'Sam', 'Lucie', 'Noah'];
const CITIES = ['Bordeaux', 'Lyon', 'Lille', 'Nantes', 'Berlin', 'Montréal'];

export function userText(): string {
  const template = Math.random() < 0.8 ? pick(REMEMBERED) : pick(SMALL_TALK);
  return template.replace('{name}', pick(NAMES)).replace('{city}', pick(CITIES));
}

export function assistantText(): string {
  return pick(ASSISTANT_REPLIES);
}
