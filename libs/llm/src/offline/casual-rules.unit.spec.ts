import type { Locale } from '@engram/domain';
import type { ExtractedCandidate } from '../ports';
import { extractCandidates } from './offline-extractor';

/**
 * The casual-chat rules on sentences of their own (not the development set's): each class of the
 * rules finds what it is for, and the hard negatives next to it stay negative.
 */
function extract(text: string, locale: Locale): ExtractedCandidate[] {
  return extractCandidates({
    message: { role: 'user', text, occurredAt: '2026-06-08T16:40:00Z' },
    locale,
    timeZone: 'Europe/Paris',
    recentMessages: [],
    existingMemories: [],
  });
}

describe('offline extractor on casual chat', () => {
  it.each<[string, Locale, ExtractedCandidate['kind'], string]>([
    [
      'went to my first salsa class last night, so fun',
      'en',
      'fact',
      'The user went to their first salsa class',
    ],
    [
      'I finally finished my first half marathon!!',
      'en',
      'fact',
      'finished their first half marathon',
    ],
    ['been knitting a ton lately', 'en', 'ongoing', 'The user has been knitting a ton lately.'],
    ['I swim at the lake every morning in summer', 'en', 'fact', 'swims at the lake every morning'],
    ['my son Max just turned 6', 'en', 'fact', "The user's son Max just turned 6."],
    ['we adopted a rescue greyhound named Pepper 🐶', 'en', 'fact', 'named Pepper'],
    ['I was diagnosed with celiac disease in 2020', 'en', 'fact', 'diagnosed with celiac disease'],
    ["I'm flying to Lisbon next Friday", 'en', 'commitment', 'flying to Lisbon'],
    ["I don't really like horror movies", 'en', 'preference', 'horror movies'],
    ['I play the cello in a community orchestra', 'en', 'fact', 'plays the cello'],
    ['Je me suis mis à la poterie cet hiver', 'fr', 'fact', 'poterie'],
    ["on a acheté une maison à Angers l'an dernier", 'fr', 'fact', 'acheté une maison à Angers'],
    ['je nage à la piscine trois fois par semaine', 'fr', 'fact', 'trois fois par semaine'],
    ['mon frère Paul habite à Montréal', 'fr', 'fact', 'Paul habite à Montréal'],
    ["j'ai de l'arthrose au genou", 'fr', 'fact', 'arthrose'],
    ['je pars à Rome le mois prochain', 'fr', 'commitment', 'Rome'],
    ['je kiffe les films de Miyazaki', 'fr', 'preference', 'Miyazaki'],
    ['je suis végétarienne depuis deux ans', 'fr', 'fact', 'végétarienne'],
    ['je suis en M1 de droit à Rennes', 'fr', 'fact', 'M1 de droit'],
  ])('"%s" (%s) → %s', (text, locale, kind, content) => {
    const found = extract(text, locale);
    expect(found).toContainEqual(
      expect.objectContaining({ kind, content: expect.stringContaining(content) }),
    );
  });

  it.each<[string, Locale]>([
    ['my coworker ran the Paris marathon last year', 'en'],
    ['if I won the lottery I would buy a boat', 'en'],
    ['can you tell me how to train for a 10k?', 'en'],
    ['ok I tried it, worked better', 'en'],
    ['write me a poem about my cat', 'en'],
    ['Taylor Swift played three nights in Lyon', 'en'],
    ['ma collègue a adopté un chaton', 'fr'],
    ['si je gagnais au loto je partirais au Japon', 'fr'],
    ['tu peux me donner une recette de crêpes ?', 'fr'],
    ['je vais essayer ça demain', 'fr'],
    ["imagine j'ai un chien qui parle mdr", 'fr'],
    ["mon pote Hugo s'est cassé le poignet", 'fr'],
  ])('finds nothing about the user in "%s" (%s)', (text, locale) => {
    expect(extract(text, locale)).toEqual([]);
  });
});
