import type { Locale } from '@engram/domain';
import type { Clause, Rule } from './rule';
import { ENGLISH_RULES, isQuestionEn } from './rules.en';
import { FRENCH_RULES, isQuestionFr } from './rules.fr';
import { toThirdPersonEn } from './third-person.en';
import { toThirdPersonFr } from './third-person.fr';

/** Everything the offline extractor needs to know about one language. */
export type LanguageRules = Readonly<{
  rules: readonly Rule[];
  isQuestion: (clause: Pick<Clause, 'lower'>) => boolean;
  /** interjections and discourse markers in front of the information ("Au fait, ") */
  fillers: RegExp;
  /** time adverbs in front of the subject ("En ce moment, ") */
  timePrefix: RegExp;
  /** where a sentence splits into clauses: before a new first-person subject */
  clauseBoundary: RegExp;
  /** connectors after which a clause without information of its own completes the previous one */
  joiningConnector: RegExp;
  firstPersonSubject: RegExp;
  /** a remark to the assistant after the information ("…, fais gaffe", "…, so keep that in mind") */
  aside: RegExp;
  toThirdPerson: (text: string) => string;
}>;

const FRENCH: LanguageRules = {
  rules: FRENCH_RULES,
  isQuestion: isQuestionFr,
  fillers:
    /^(?:au fait|sinon|bon|bref|alors|ah|oh|eh bien|eh|euh|hum|ok|okay|d'accord|ouais|oui|non|voilà|tiens|pour info|pour ton info|pour information|petite info|info|sache que|je te dis ça mais|je voulais juste te dire que|je voulais te dire que|juste pour que tu saches|pour que tu saches|il faut que tu saches que|tu sais|en fait|franchement|perso|personnellement|honnêtement|d'ailleurs|par ailleurs|aussi|et|mais|donc|puis|salut|bonjour|bonsoir|coucou|hello|hey|merci|note que|retiens que|rappelle-toi que|souviens-toi que|n'oublie pas que|garde en tête que|à noter|pour mémoire|pour rappel|enfin|ensuite|également|btw|ps|p\.s\.|yo|petite précision|précision|pour le contexte|pour contexte|contexte|ouf|pff|bof|rhaa|argh|mdr|lol|ptdr|du coup|genre|bah|ben|wesh|bref|je te jure que|je te jure|j'avoue|moi(?=,?\s+(?:je |j'))|perso)(?![\p{L}\p{N}'])[\s,:;!.—–-]*/iu,
  timePrefix:
    /^(?:en ce moment|actuellement|ces temps-ci|ces jours-ci|depuis (?:peu|quelque temps|quelques (?:jours|semaines|mois)|(?:un|une|deux|trois|\d+) (?:ans?|mois|semaines?))|cette semaine|ce mois-ci|cette année|le mois prochain|la semaine prochaine|l'an prochain|l'année prochaine|bientôt|demain|aujourd'hui|ce soir|ce matin|(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)(?: prochain)?|d'ici (?:la fin (?:du mois|de la semaine|de l'année)|peu)|dans (?:quelques|deux|trois|\d+) (?:jours|semaines|mois)|à partir de (?:demain|maintenant|lundi|la semaine prochaine|aujourd'hui)|dorénavant|désormais|à l'avenir|de manière générale|en général|la plupart du temps|au quotidien|le week-end|le weekend|ce week-end|ce weekend|ce soir|hier|hier soir|la semaine dernière|le mois dernier|l'an dernier|l'année dernière|depuis peu)(?![\p{L}\p{N}])[\s,]*/iu,
  clauseBoundary:
    /\s*[,;:–—]\s*(?:(?:et|mais|donc|puis|car|alors|parce que|sauf que|par contre|en plus|d'ailleurs|et puis|aussi)\s+)?(?=(?:je\s|j'|nous\s|on\s|mon\s|ma\s|mes\s|notre\s|nos\s|moi,?\s+c'est|en ce moment|actuellement|rappelle-moi|tutoie|tu\s|peux-tu|pourrais-tu|est-ce|qu'en penses-tu|tu en penses))|\s+(?:et|mais|donc|puis|car|alors|parce que|sauf que|et puis)\s+(?=(?:je\s|j'|nous\s))/giu,
  joiningConnector: /^(?:|et|donc|car|alors|puis|et puis|parce que)$/u,
  firstPersonSubject: /^(?:je |j'|nous |on )/u,
  aside:
    /\s*(?:,|\s-\s|\s–\s)\s*(?:(?:donc|alors|du coup|et)\s+)?(?:fais|va|vas-y|écris-moi|écris|dis-moi|évite|note|garde|pense|merci|stp|svp|c'est|c'était|ça|pas de|hein|tu|t'|n'hésite|bref|lol|mdr|haha|préviens-moi|tiens-en compte|prends-le|adapte|retiens)(?![\p{L}])/iu,
  toThirdPerson: (text) => toThirdPersonFr(text),
};

const ENGLISH: LanguageRules = {
  rules: ENGLISH_RULES,
  isQuestion: isQuestionEn,
  fillers:
    /^(?:by the way|btw|fyi|just so you know|just fyi|for context|for the record|for your information|also|oh and|oh|ah|and|but|so|well|actually|honestly|personally|note that|please note that|remember that|please remember that|keep in mind that|bear in mind that|hi there|hi|hey there|hey|hello|thanks|thank you|ok so|okay so|ok|okay|ps|p\.s\.|anyway|anyways|alright|yeah|yes|no|nope|cool|great|quick note|fun fact|heads up|a heads up|some context|ugh|argh|sigh|lol|omg|man|welp|phew|hmm|um|uh|lmao|tbh|guess what|guess who|i swear|gotta say|ngl|omg so)(?![\p{L}\p{N}'])[\s,:;!.—–-]*/iu,
  timePrefix:
    /^(?:currently|right now|at the moment|these days|lately|nowadays|this week|this month|this year|next week|next month|next year|soon|tomorrow|today|tonight|from now on|going forward|in (?:the )?future|in general|generally|usually|most of the time|on weekends|(?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|for now|for the past (?:few )?(?:days|weeks|months|years)|this weekend|yesterday|last (?:night|week|weekend|month|year))(?![\p{L}\p{N}])[\s,]*/iu,
  clauseBoundary:
    /\s*[,;:–—]\s*(?:(?:and|but|so|because|since|as|plus|also|though|although)\s+)?(?=(?:i\s|i'm|i've|i'll|i'd|we\s|we're|we've|my\s|our\s|remind me|call me|currently|right now|at the moment|these days|can you|could you|would you|will you|do you|any idea|what do you))|\s+(?:and|but|so|because|since|though|although|and also|plus)\s+(?=(?:i\s|i'm|i've|i'll|i'd|we\s|we're|we've))/giu,
  joiningConnector: /^(?:|and|so|because|since|as|and also)$/u,
  firstPersonSubject: /^(?:i |i'm |i've |i'll |i'd |we |we're |we've )/u,
  aside:
    /\s*(?:,|\s-\s|\s–\s)\s*(?:(?:so|and|which|but)\s+)?(?:keep|please|don't|do not|make|let|tell|give|avoid|remember|bear|note|it's|that's|lol|haha|thanks|you|can you|could you|which means|hence|pls|just)(?![\p{L}])/iu,
  toThirdPerson: (text) => toThirdPersonEn(text),
};

export function rulesFor(language: Locale): LanguageRules {
  return language === 'fr' ? FRENCH : ENGLISH;
}
