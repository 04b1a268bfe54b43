import {
  CONDITIONS_FR,
  FREQUENCY_FR,
  PAST_ACTIVITIES_FR,
  PETS_FR,
  STUDY_YEARS_FR,
} from './casual-vocabulary';
import { type Clause, E, type Rule } from './rule';
import { asSentence } from './text';
import { toThirdPersonFr } from './third-person.fr';
import { FAMILY_FR } from './vocabulary';

/**
 * How people tell their lives in casual chat, in French: plans with a date, what they did (passé
 * composé), routines, health, family and pets, likes said loosely. By grammar and word classes
 * (casual-vocabulary.ts), as casual-rules.en.ts does for English.
 */
const re = (source: string): RegExp => new RegExp(source, 'u');
const ROUTINE = re(`(?:${FREQUENCY_FR})${E}`);

const PLAN_TIME = re(
  `(?:ce soir|demain|ce week-end|ce weekend|cette semaine|ce mois-ci|cet été|cet hiver|cet automne|ce printemps|la semaine prochaine|le mois prochain|l'an prochain|l'année prochaine|l'été prochain|l'hiver prochain|à la rentrée|en (?:janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre)|dans (?:quelques|deux|trois|\\d+) (?:jours|semaines|mois)|un jour)${E}`,
);
/** What follows a verb when the thing itself lives in the conversation ("j'ai fait ça"). */
const DEICTIC_OBJECT = re(
  `^(?:ça|cela|pareil|exprès|gaffe|attention|semblant|comme|tout|rien|te|t'|vous|y|en)${E}`,
);
const KIN = `${FAMILY_FR}|${PETS_FR}|ex-femme|ex-mari|ex|beaux-parents|belle-mère|beau-père|belle-sœur|beau-frère|aîné|aînée|cadet|cadette|grand-mère|grand-père|grands-parents|neveu|nièce|oncle|tante|cousin|cousine|mamie|papi|papy`;
const FIRST_PERSON = `(?:j'ai|on a|nous avons|je suis|on est|nous sommes|je me suis|on s'est|nous nous sommes)`;
const ADVERBS = `(?:enfin|déjà|finalement|encore|bien|juste|aussi|officiellement|récemment|carrément|vraiment|tous les deux|toutes les deux)`;
const NOT_ROUTINE_VERBS =
  "pense|crois|sais|veux|voudrais|peux|pourrais|dois|devrais|trouve|espère|ne|n'|suis|sens|me demande";

const pastActivity = re(`^${FIRST_PERSON}(?: ${ADVERBS})* (?:${PAST_ACTIVITIES_FR})${E}`);
const planWithoutTime = re(
  `^(?:je vais|on va|nous allons|je compte|on compte|j'ai décidé d'|j'ai décidé de) ?(?:m'|me |nous |se |s')?(\\p{L}+(?:er|ir|re))${E}(.*)$`,
);
const NOT_PLANS = 'essayer|voir|regretter|réfléchir|tenter|faire|dire|demander|être|avoir|aller';

export const CASUAL_PLANS_FR: readonly Rule[] = [
  {
    kind: 'commitment',
    confidence: 0.7,
    pattern: re(
      `^(?:je vais|on va|nous allons|je compte|on compte|je pars|on part|nous partons|je commence|on commence|je déménage|on déménage|nous déménageons|on se marie|je me marie|nous nous marions|je reprends|je rentre|on rentre|je passe|on passe|je fais|on fait|je vois|on voit|j'ai prévu|on a prévu|je prévois|je dois|on doit|je reçois|on reçoit)${E}`,
    ),
    date: 'optional',
    // "every Tuesday evening" is a routine, not a plan for this evening; a plan for "it" is the conversation's
    when: (clause) =>
      (clause.due !== undefined || PLAN_TIME.test(clause.sentence)) &&
      !ROUTINE.test(clause.lower) &&
      !/\s(?:ça|cela|ceci)(?![\p{L}])/u.test(clause.lower),
  },
  {
    kind: 'commitment',
    confidence: 0.6,
    pattern: planWithoutTime,
    when: (clause) => {
      const match = planWithoutTime.exec(clause.lower);
      const verb = match?.[1] ?? '';
      const object = (match?.[2] ?? '').trim();
      return object !== '' && !re(`^(?:${NOT_PLANS})$`).test(verb) && !DEICTIC_OBJECT.test(object);
    },
  },
];

export const CASUAL_FACTS_FR: readonly Rule[] = [
  // health, before the passé composé reads "j'ai eu une hernie" as an activity
  {
    kind: 'fact',
    confidence: 0.75,
    pattern: re(
      `^(?:(?:j'ai|j'ai eu|j'ai déjà eu|j'ai toujours eu|je souffre|je fais) (?:d'une |d'un |de l'|de la |du |des |d'|une |un |de |l')?(?:grosse |petite |vieille |sévère )?(?:${CONDITIONS_FR})${E}|j'ai mal (?:au|à la|à l'|aux)${E}|je suis (?:souvent |très |un peu )?(?:migraineu(?:x|se)|enceinte|opérée?|en rééducation|sous traitement|en burn-out|en dépression|en convalescence|diabétique|asthmatique|allergique|daltonien(?:ne)?)${E})`,
    ),
  },
  // family and pets: "ma fille rentre en CP", "mon fils Théo a 17 ans", "mon père est garagiste"
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `^(?:mon|ma|mes|notre|nos) (?:(?:petit|petite|grand|grande|aîné|aînée|cadet|cadette|nouveau|nouvelle|vieux|vieille|meilleur|meilleure) )?(?:${KIN})(?: [\\p{L}'-]+)? (?:est|a|était|avait|habite|vit|vivent|travaille|bosse|s'appelle|s'appellent|rentre|va|fait|adore|joue|étudie|passe|sont|ont|vient|viennent|tient|tiennent|commence|part|reprend|entre|fête|aura|m'a|m'ont|nous a|nous ont|s'est)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `(?:^|\\s)(?:un|une|mon|ma|notre) (?:${PETS_FR}) (?:qui s'appelle|nommée?|appelée?) \\p{L}`,
    ),
    content: (clause) => asSentence(toThirdPersonFr(clause.core)),
  },
  // "je grimpe deux fois par semaine", "je vois Théo un week-end sur deux"
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `^(?:je |j'|on |nous )(?:y |m'y |me |nous )?(?!(?:${NOT_ROUTINE_VERBS})${E})\\p{L}+`,
    ),
    when: (clause) => ROUTINE.test(`${clause.timePrefix} ${clause.lower}`),
  },
  // "On a adopté un chiot", "j'ai eu mon permis", "je me suis mise au jardinage"
  {
    kind: 'fact',
    confidence: 0.6,
    pattern: pastActivity,
    when: (clause) => {
      const match = pastActivity.exec(clause.lower);
      const rest = clause.lower.slice(match?.[0].length ?? 0).trim();
      return rest !== '' && !DEICTIC_OBJECT.test(rest) && wordCount(clause) >= 3;
    },
  },
  // "mon mari et moi vivons près d'Annecy": the user is in the subject
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `^(?:mon|ma|mes|notre|nos) (?:${KIN})(?: [\\p{L}'-]+)? et moi,? (?:on |nous )?\\p{L}+`,
    ),
    when: (clause) => wordCount(clause) >= 5,
  },
  {
    kind: 'fact',
    confidence: 0.75,
    pattern: re(`^je suis (?:en|à la|à l') (?:${STUDY_YEARS_FR})${E}`),
  },
  // likes said loosely
  {
    kind: 'preference',
    confidence: 0.7,
    pattern: re(
      `^(?:je kiffe|je supporte|je suis (?:une? )?(?:grande? |grosse |super )?fan|je suis (?:complètement |trop )?accro|je suis passionnée? (?:de|par)|je rêve d|je rêve de|je suis (?:très |trop )?(?:branchée?|calée?) )`,
    ),
  },
];

function wordCount(clause: Clause): number {
  return clause.lower.split(/\s+/u).length;
}
