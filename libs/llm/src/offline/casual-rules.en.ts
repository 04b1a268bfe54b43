import {
  BODY_PARTS_EN,
  CONDITIONS_EN,
  FREQUENCY_EN,
  PAST_ACTIVITIES_EN,
  PETS_EN,
  PLAYED_EN,
} from './casual-vocabulary';
import { type Clause, E, type Rule } from './rule';
import { asSentence } from './text';
import { toThirdPersonEn } from './third-person.en';
import { FAMILY_EN } from './vocabulary';

/**
 * How people tell their lives in casual chat, in English: plans with a date, what they did, what they
 * have been doing lately, routines, health, family and pets, likes said loosely. By grammar (a
 * first-person past, a present perfect continuous, a frequency) and word classes (casual-vocabulary.ts),
 * with the subject often left out ("been painting a lot lately", "ran 32km yesterday").
 */
const re = (source: string): RegExp => new RegExp(source, 'u');
const ROUTINE = re(`(?:${FREQUENCY_EN})${E}`);

/** A when for the plan rules: a time said, or the vague ones people plan with. */
const PLAN_TIME = re(
  `(?:tonight|tomorrow|this (?:weekend|week|month|year|summer|winter|fall|autumn|spring)|next (?:week|weekend|month|year|summer|winter|fall|autumn|spring|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|in (?:the )?(?:summer|winter|fall|autumn|spring)|in (?:january|february|march|april|may|june|july|august|september|october|november|december)|in (?:a few|two|three|\\d+) (?:days|weeks|months)|someday|one day)${E}`,
);
/** What follows a verb when the thing itself lives in the conversation ("I tried it"). */
const DEICTIC_OBJECT = re(`^(?:it|that|this|them|those|these|you|your|so|one|lucky|sick|back)${E}`);
const NOT_ACTIVITIES =
  'thinking|wondering|meaning|waiting|feeling|looking at|going through|told|asked|trying to figure|so|really|too';
const NOT_ROUTINE_VERBS =
  "think|guess|hope|feel|wonder|know|mean|need|want|wish|would|could|should|can|can't|cannot|don't|didn't|won't|will|might|must|just|am|was|'m|said|say";
const KIN = `${FAMILY_EN}|${PETS_EN}|eldest|oldest|youngest|grandma|grandpa|granny|nan|aunt|uncle|cousin|niece|nephew|in-laws|stepmom|stepdad`;
const FIRST_PERSON = `(?:i|we|me and [\\p{L}-]+|my (?:${KIN}) and i)`;
const ADVERBS = '(?:just|finally|also|recently|actually|already|officially|literally|totally)';

const PLAN_WITHOUT_TIME = re(
  `^(?:i'm|i am|we're|we are) (?:gonna|going to|planning to|planning on) \\p{L}+ (.+)$`,
);
const pastActivity = re(`^(?:${FIRST_PERSON} )?(?:${ADVERBS} )*(?:${PAST_ACTIVITIES_EN})${E}`);

export const CASUAL_PLANS_EN: readonly Rule[] = [
  {
    kind: 'commitment',
    confidence: 0.7,
    pattern: re(
      `^(?:i'm|i am|we're|we are) (?:also |finally |really |probably |definitely )?(?:gonna|going to|planning to|planning on|starting|moving|flying|leaving|visiting|heading|traveling|travelling|going|getting|having|doing|taking|hosting|running|seeing|meeting|off to|saving up for|saving for)${E}`,
    ),
    date: 'optional',
    // "every Tuesday evening" is a routine, not a plan for this evening; a plan for "it" is the conversation's
    when: (clause) =>
      (clause.due !== undefined || PLAN_TIME.test(clause.sentence)) &&
      !ROUTINE.test(clause.lower) &&
      !/\s(?:it|that|them)(?![\p{L}])/u.test(clause.lower),
  },
  {
    kind: 'commitment',
    confidence: 0.6,
    pattern: PLAN_WITHOUT_TIME,
    when: (clause) => {
      const object = PLAN_WITHOUT_TIME.exec(clause.lower)?.[1] ?? '';
      return object !== '' && !DEICTIC_OBJECT.test(object);
    },
  },
];

export const CASUAL_FACTS_EN: readonly Rule[] = [
  // health, before the past tense reads "I was diagnosed" as an activity
  {
    kind: 'fact',
    confidence: 0.75,
    pattern: re(
      `^(?:(?:i )?(?:was|got|have been) diagnosed|(?:i have|i've got|i've had|i had|i have had|i suffer from|i struggle with|i deal with|i live with) (?:(?:a|an|bad|chronic|severe|mild|really bad) )*(?:${CONDITIONS_EN})${E}|my (?:${BODY_PARTS_EN}) (?:is|has been|keeps|hurts|started|was)${E}|i (?:can't|cannot|can not) (?:eat|drink|have) )`,
    ),
    content: firstPerson,
  },
  // family and pets: "my wife Sarah is pregnant", "Biscuit's my cat", "a golden retriever named Waffles"
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `^(?:my|our) (?:(?:little|baby|older|younger|big|eldest|oldest|youngest|new|late|twin|step|lovely) )?(?:${KIN})(?: [\\p{L}'-]+)?(?:'s| is| was| are| were| has| had| have| lives| lived| works| worked| studies| studied| got| turned| started| loves| used to| plays| goes| moved| just| passed| died| is called| is named)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `^(?:[\\p{L}-]+(?:'s| is) (?:my|our) (?:${KIN})${E}|(?:a|an|my|our|new) (?:[\\p{L}-]+ )?(?:${PETS_EN}) (?:named|called) \\p{L})`,
    ),
    content: (clause) => asSentence(toThirdPersonEn(clause.core)),
  },
  // "I usually run at 6am before work", "I fast every year"
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `^(?:i|we) (?:(?:usually|always|often|normally|still|also|really) )?(?!(?:${NOT_ROUTINE_VERBS})${E})\\p{L}+`,
    ),
    when: (clause) => ROUTINE.test(`${clause.timePrefix} ${clause.lower}`),
  },
  // "been painting a lot lately", "I've been journaling every morning since January"
  {
    kind: 'ongoing',
    confidence: 0.65,
    pattern: re(
      `^(?:i've been|i have been|we've been|been) (?:(?:\\p{L}+ly|a lot|so|really) )?(?!(?:${NOT_ACTIVITIES})${E})\\p{L}+ing${E}`,
    ),
    content: firstPerson,
  },
  // "I went to a support group yesterday", "just got back from a 10k run", "adopted a second cat"
  {
    kind: 'fact',
    confidence: 0.6,
    pattern: pastActivity,
    when: (clause) => {
      const match = pastActivity.exec(clause.lower);
      const rest = clause.lower.slice(match?.[0].length ?? 0).trim();
      return rest !== '' && !DEICTIC_OBJECT.test(rest) && wordCount(clause) >= 3;
    },
    content: firstPerson,
  },
  // "studying mechanical engineering", "working at a coffee shop on weekends": the subject left out
  {
    kind: 'fact',
    confidence: 0.6,
    pattern: re(`^(?:studying|working|training|teaching|volunteering|living|doing my)${E}`),
    when: (clause) => wordCount(clause) >= 3,
    content: (clause) => asSentence(toThirdPersonEn(`I'm ${clause.core}`)),
  },
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(`^(?:i|we) (?:(?:also|still) )?play (?:${PLAYED_EN})${E}`),
  },
  // likes said loosely
  {
    kind: 'preference',
    confidence: 0.7,
    pattern: re(
      `^(?:i (?:(?:really|honestly|just|totally|kinda|kind of) )?(?:don't|do not) (?:(?:really|actually|much) )?(?:like|enjoy|care for)|i (?:(?:really|kinda|so) )?miss|(?:i'm|i am) (?:an? )?(?:(?:huge|big|massive|die-hard|lifelong) )?[\\p{L}-]+ fan|(?:i'm|i am) (?:(?:really|so|super|kinda) )?(?:into|obsessed with|addicted to|hooked on))${E}`,
    ),
  },
];

function wordCount(clause: Clause): number {
  return clause.lower.split(/\s+/u).length;
}

/** Said without its subject ("ran 32km yesterday"): the user is the one who did it. */
function firstPerson(clause: Clause): string {
  const said = /^(?:i|we|me|my)\b|^(?:i'|we')/u.test(clause.lower)
    ? clause.core
    : `${/^been\b/u.test(clause.lower) ? "I've" : 'I'} ${clause.core}`;
  return asSentence(toThirdPersonEn(said));
}
