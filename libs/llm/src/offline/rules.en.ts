import { CASUAL_FACTS_EN, CASUAL_PLANS_EN } from './casual-rules.en';
import { type Clause, E, type Rule } from './rule';
import { asSentence } from './text';
import { toThirdPersonEn } from './third-person.en';
import { FAMILY_EN, LANGUAGES_EN, NATIONALITIES_EN, PROFESSIONS_EN } from './vocabulary';

const re = (source: string): RegExp => new RegExp(source, 'u');

const VAGUE_TIME = re(
  `(?:next month|next week|next year|next quarter|soon|shortly|this week|this month|this year|this quarter|(?:by )?(?:the )?end of (?:the |this )?(?:week|month|year|quarter)|in (?:a few|the next|the coming|two|three|\\d+) (?:days|weeks|months)|within (?:a|two|three|\\d+) (?:weeks|months)|this (?:summer|winter|fall|autumn|spring)|in (?:january|february|march|april|may|june|july|august|september|october|november|december))${E}`,
);
const URGENCY = re(
  `(?:quickly|fast|asap|urgent|urgently|rush|deadline|tight|behind schedule|in a hurry)`,
);
const FIRST_PERSON_START = re(`^(?:i |i'm |i've |i'll |we |we're |we've |we'll |my |our )`);
const PREFERENCE_MARKERS = re(
  `(?:always|never|from now on|going forward|in (?:the )?future|by default|every time|whenever|in general|generally)${E}`,
);
const ONE_OFF_CHOICE = re(
  `^(?:i prefer|i'd prefer|i like|i love|i'd rather)\\s+(?:it|that|this|the first|the second|the last|the third|the (?:first|second|last|other|new|old) (?:one|version|option)|option \\S+|version \\S+|this one|that one|the \\d|number \\d|both|neither|it better)${E}`,
);
const EVENT_NOUNS =
  'appointment|meeting|interview|exam|test|call|flight|train|dinner|lunch|deadline|presentation|demo|review|session|class|lesson|doctor|dentist|checkup|check-up|surgery|match|game|concert|wedding|conference|workshop|webinar|recital|hearing|audition|race|marathon|date|shift|due date|standup|stand-up|one-on-one|1:1|performance review|board meeting|pitch|gig|show|party|trip|vacation|holiday|finals|tournament|performance|game night|appointment';
const IMPERATIVES =
  'answer|reply|respond|write|be|use|avoid|give|keep|stop|stay|add|explain|suggest|summarize|summarise|cite|start|end|format|structure|say|include|show|send|address|talk|speak|call|check|double-check|put|skip|default|mention|remember|list|ask|assume|make|stick|prefer|err|focus|translate';

export const ENGLISH_RULES: readonly Rule[] = [
  // identity
  {
    kind: 'identity',
    confidence: 0.9,
    pattern: re(
      `^(?:my name is|my name's|my first name is|the name's|i'm called|i am called)\\s+(\\p{L}[\\p{L}'-]*)((?:\\s+\\p{Lu}[\\p{L}'-]*){0,2})`,
    ),
    cased: true,
    content: (_clause, match) => `The user's name is ${name(match[1], match[2])}.`,
    rest: (clause, match) => appositionEn(clause.core.slice(match[0].length)),
  },
  {
    kind: 'identity',
    confidence: 0.8,
    pattern: re(`^(?:please |you can |just )?call me\\s+(\\p{L}[\\p{L}'-]*)`),
    cased: true,
    request: true,
    when: (clause) =>
      !/^(?:please |you can |just )?call me\s+(?:back|later|tomorrow|when|if|at|on|about|asap|now)\b/.test(
        clause.lower,
      ),
    content: (_clause, match) => `The user wants to be called ${name(match[1], '')}.`,
  },
  {
    kind: 'identity',
    confidence: 0.85,
    pattern: re(
      `^(?:(?:i'm|i am) (?:\\d{1,3}|almost \\d{1,3}|turning \\d{1,3})|i (?:just )?turned \\d{1,3})(?: years old| years| yo)?(?:[\\s,.!]|$)`,
    ),
  },
  { kind: 'identity', confidence: 0.85, pattern: re(`^i was born${E}`) },
  {
    kind: 'identity',
    confidence: 0.8,
    pattern: re(`^(?:i'm|i am|i come) (?:originally )?from |^i grew up in${E}`),
  },
  { kind: 'identity', confidence: 0.8, pattern: re(`^(?:i'm|i am) (?:${NATIONALITIES_EN})${E}`) },
  {
    kind: 'identity',
    confidence: 0.85,
    pattern: re(
      `^(?:my pronouns are|i identify as|my (?:native|first|mother) (?:language|tongue) is|my birthday is|my date of birth is|i was born on)`,
    ),
  },
  {
    kind: 'identity',
    confidence: 0.75,
    pattern: re(`^(?:i'm|i am) (\\p{Lu}\\p{Ll}+(?: \\p{Lu}\\p{Ll}+)?)(?=,|$)`),
    cased: true,
    when: (clause) =>
      !re(`^(?:i'm|i am) (?:${NATIONALITIES_EN}|${PROFESSIONS_EN})(?:,|$)`).test(clause.lower),
    content: (_clause, match) => `The user's name is ${match[1] ?? ''}.`,
    rest: (clause, match) => appositionEn(clause.core.slice(match[0].length)),
  },

  // commitments
  {
    kind: 'commitment',
    confidence: 0.8,
    pattern: re(
      `^(?:i have|i've got|i got|we have|we've got) (?:a |an |my |the |our )?(?:[\\p{L}'-]+ )?(?:${EVENT_NOUNS})${E}`,
    ),
    date: 'precise',
  },
  {
    kind: 'commitment',
    confidence: 0.8,
    pattern: re(
      `^(?:i promised|i've promised|i committed|i agreed to|i told [\\p{L}-]+ (?:that )?i(?:'d| would)?)${E}`,
    ),
    date: 'optional',
  },
  {
    kind: 'commitment',
    confidence: 0.75,
    pattern: re(
      `^(?:i need to|i have to|i've got to|i gotta|i must|i should|i'm supposed to|i am supposed to|i'm due to|we need to|we have to|we must|i can't forget to|i mustn't forget to|i plan to|i'm planning to|i intend to)${E}`,
    ),
    date: 'precise',
  },
  {
    kind: 'commitment',
    confidence: 0.65,
    pattern: re(`^(?:i'm going to|i am going to|i'll|i will|we're going to|we'll)\\s+\\p{L}+`),
    date: 'precise',
    // "I'll send it tomorrow": what "it" is lives in the conversation, not in the memory.
    when: (clause) =>
      !/^(?:i'm going to|i am going to|i'll|i will|we're going to|we'll)\s+\S+\s+(?:it|that|this|them)\b/.test(
        clause.lower,
      ),
  },
  {
    kind: 'commitment',
    confidence: 0.75,
    pattern: re(`^(?:my|our) (?:${EVENT_NOUNS})${E}`),
    date: 'precise',
  },

  ...CASUAL_PLANS_EN,

  // preferences
  {
    kind: 'preference',
    confidence: 0.9,
    pattern: re(
      `^(?:i prefer|i'd prefer|i would prefer|i'd rather|i would rather|i much prefer|i generally prefer|i usually prefer|i always prefer)${E}`,
    ),
    when: (clause) => !ONE_OFF_CHOICE.test(clause.lower),
  },
  {
    kind: 'preference',
    confidence: 0.85,
    pattern: re(
      `^(?:i hate|i dislike|i can't stand|i cannot stand|i don't like|i do not like|i really don't like|i'm not a fan of|i am not a fan of|i'm not into|i don't enjoy|i detest|i loathe|i don't care for)${E}`,
    ),
    when: (clause) => !ONE_OFF_CHOICE.test(clause.lower),
  },
  {
    kind: 'preference',
    confidence: 0.8,
    pattern: re(`^(?:i love|i really love|i absolutely love|i adore)${E}`),
    when: (clause) => !ONE_OFF_CHOICE.test(clause.lower),
  },
  {
    kind: 'preference',
    confidence: 0.75,
    pattern: re(
      `^(?:i like|i really like|i quite like|i enjoy|i really enjoy|i'm into|i am into)${E}`,
    ),
    when: (clause) => !ONE_OFF_CHOICE.test(clause.lower),
  },
  {
    kind: 'preference',
    confidence: 0.75,
    pattern: re(
      `^(?:i'm|i am) (?:a )?(?:big |huge |real |massive )?(?:fan of|fond of|passionate about|obsessed with|a sucker for)`,
    ),
  },
  {
    kind: 'preference',
    confidence: 0.85,
    pattern: re(`^my (?:all-time )?(?:favou?rite) [\\p{L}-]+(?: [\\p{L}-]+)? (?:is|are)${E}`),
  },
  {
    kind: 'preference',
    confidence: 0.8,
    pattern: re(
      `^(?:i want|i'd like|i would like|i need|i expect)\\s+(?:you to|answers|responses|replies|short|concise|detailed|your answers|your responses|explanations|examples|code examples)`,
    ),
    when: (clause) =>
      PREFERENCE_MARKERS.test(`${clause.timePrefix} ${clause.lower}`) ||
      /^(?:i want|i'd like|i would like|i need|i expect)\s+(?:short|concise|detailed|answers|responses|replies|your answers|your responses)/.test(
        clause.lower,
      ),
  },
  {
    kind: 'preference',
    confidence: 0.8,
    pattern: re(
      `^(?:please )?(?:always |never |don't ever |do not ever |don't |do not )?(?:${IMPERATIVES})${E}`,
    ),
    when: (clause) => PREFERENCE_MARKERS.test(`${clause.timePrefix} ${clause.lower}`),
    content: (clause) => imperativePreference(clause.core),
  },

  {
    kind: 'preference',
    confidence: 0.7,
    pattern: re(
      `^(?:please )?(?:keep (?:your |the )?(?:answers|responses|replies|messages|explanations|summaries|emails)|avoid|stop using|don't use|do not use|be more (?:concise|brief|direct|detailed)|no more)${E}`,
    ),
    content: (clause) => imperativePreference(clause.core),
  },

  // ongoing
  {
    kind: 'ongoing',
    confidence: 0.8,
    pattern: re(
      `^(?:i'm|i am|we're|we are|i've been|we've been)(?: (?:currently|still|now|actively|also|busy|really))* (?:working on|building|developing|writing|preparing|preparing for|training for|learning|studying|studying for|renovating|organizing|organising|planning|redesigning|rewriting|refactoring|migrating|putting together|setting up|looking for|searching for|hunting for|in the middle of|doing a|taking a|taking classes|taking lessons|trying to learn|trying to finish|finishing|researching|recording|raising|fundraising|hiring)${E}`,
    ),
    when: (clause) =>
      !/^(?:i'm|i am|we're|we are)(?: \w+)* (?:looking for|searching for) (?:a |an |the |some )?(?:recipe|restaurant|movie|film|book|gift|word|way|place to eat|song)/.test(
        clause.lower,
      ) && !(/^we/.test(clause.lower) && VAGUE_TIME.test(clause.lower)),
  },
  {
    kind: 'ongoing',
    confidence: 0.7,
    pattern: re(
      `^(?:i work on|we work on|i'm learning|i learn|i'm teaching myself|i started learning|i've started learning|i just started learning)${E}`,
    ),
  },

  // facts
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^(?:i live|i'm living|i am living|i'm based|i am based|i reside|i just moved to|i recently moved to|i moved to|i've moved to|i relocated to|we live|i'm settled in)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^(?:i work|i'm working|i am working)(?: (?:currently|now|still|full-time|part-time|remotely))* (?:at|for|in|as|with|from home|remotely|part-time|full-time|night shifts|nights|freelance)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^(?:i just joined|i recently joined|i joined|i've joined|i run|i own|i manage|i lead|i head|i founded|i co-founded|i cofounded|i started my own|i'm self-employed|i am self-employed|i'm retired|i am retired|i'm unemployed|i'm between jobs|i'm in charge of|i am in charge of|i'm responsible for|i am responsible for|i'm employed)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.9,
    pattern: re(
      `^(?:i'm|i am) (?:an? |the |one of the )?(?:[\\p{L}-]+ )?(?:${PROFESSIONS_EN})s?(?: [\\p{L}-]+)?(?: [\\p{L}-]+)? (?:at|for|in|with|of)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^(?:i'm|i am) (?:an? |the )?(?:junior |senior |lead |staff |principal |freelance |new |former |aspiring |first-year |second-year |final-year )?(?:${PROFESSIONS_EN})${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^(?:i'm|i am) (?:specialized in|specialised in|an expert in|certified|qualified|a graduate of|doing my (?:phd|master's|masters|degree|residency|internship))|^i specialize in|^i specialise in|^i have a (?:phd|master's|masters|degree|bachelor's|diploma)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.8,
    pattern: re(
      `^(?:i have|i've got|we have) (?:a|an|one|two|three|four|five|six|\\d+) (?:little |young |grown |older |younger |teenage |adult )?(?:${FAMILY_EN})${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.8,
    pattern: re(
      `^(?:i'm|i am) (?:a )?(?:dad|father|mom|mum|mother|parent|grandparent|grandfather|grandmother|married|engaged|single|divorced|separated|widowed|pregnant|an only child|the oldest|the youngest)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.8,
    pattern: re(
      `^my (?:${FAMILY_EN})(?:'s name is|'s name's|'s called| is called|is named|'s called|'s named|is \\d|are \\d|lives|live|works|work|is a|is an|was born|is allergic|goes to|just turned)`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^(?:(?:i'm|i am) (?:allergic|lactose intolerant|gluten intolerant|intolerant|diabetic|celiac|coeliac|asthmatic|epileptic|colorblind|colour-blind|color-blind|deaf|hard of hearing|blind|visually impaired|vegetarian|vegan|pescatarian|left-handed|dyslexic|autistic|a non-smoker|in a wheelchair|sober|teetotal)|i don't (?:eat|drink)|i do not (?:eat|drink)|i never (?:eat|drink)|i have (?:adhd|asthma|diabetes|a disability|celiac disease|an allergy))`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.8,
    pattern: re(
      `^i (?:speak|also speak) (?:fluent |some |a bit of |a little |basic |native )?(?:${LANGUAGES_EN})${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `^(?:i play|i do|i practice|i practise|i go) [\\p{L}-]+.*(?:every|each|twice|three times|on weekends|on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)|since|for (?:years|\\d+ years)|regularly|competitively|a week)`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `^(?:i studied|i graduated|i went to (?:school|university|college|uni)|i grew up|i used to live|i've lived)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.65,
    pattern: re(
      `^(?:i use|i code in|i program in|i develop in|i write code in|i mostly use|i mainly use|i mostly code in|i mainly code in) \\p{L}`,
    ),
    when: (clause) => /\p{Lu}/u.test(clause.core.slice(5)),
  },

  // casual chat: what the user did, does every week, lives with (casual-rules.en.ts)
  ...CASUAL_FACTS_EN,

  // context
  {
    kind: 'context',
    confidence: 0.75,
    pattern: re(
      `^(?:(?:at work|at my company|at my job|in my team|on my team|here),?\\s+)?(?:my team|our team|my company|our company|my org|our org|the team|we)\\s+(?:use|uses|work|works|follow|follows|run|runs|deploy|deploys|ship|ships|code|codes|are on|is on|switched to|moved to|adopted|have adopted|has adopted|rely on|relies on|build with|builds with)${E}`,
    ),
    when: (clause) => !/^(?:we|my team|our team) (?:work|works) on\b/.test(clause.lower),
    content: (clause) => teamContentEn(clause.core),
  },
  {
    kind: 'context',
    confidence: 0.75,
    pattern: re(
      `^(?:i'm|i am|we're|we are) (?:currently |a bit |really |so |super |very |completely |totally )?(?:on vacation|on holiday|on holidays|on leave|on sick leave|on parental leave|on maternity leave|on paternity leave|off work|traveling|travelling|on a business trip|swamped|overwhelmed|slammed|buried|in a rush|under pressure|behind schedule|short-staffed|understaffed|working remotely|remote this|in crunch|crunching|sick|ill|recovering|in the hospital|in hospital|on call|on-call)`,
    ),
  },
  {
    kind: 'context',
    confidence: 0.75,
    pattern: re(
      `^(?:i have|i've got|we have|we've got) (?:a |an )?(?:big |huge |tight |hard |major )?(?:deadline|launch|audit|release|product launch|fundraise|fundraising round|crunch|busy period|go-live|rollout)${E}`,
    ),
  },
  {
    kind: 'context',
    confidence: 0.7,
    pattern: FIRST_PERSON_START,
    when: (clause) => VAGUE_TIME.test(clause.lower) || VAGUE_TIME.test(clause.timePrefix),
    boost: (clause) => (URGENCY.test(clause.sentence) ? 0.1 : 0),
  },

  // weak readings, kept last
  {
    kind: 'ongoing',
    confidence: 0.7,
    joinsPrevious: true,
    pattern: re(
      `^(?:we're|we are|i'm|i am) (?:building|developing|making|creating|launching|preparing|shipping|designing)${E}`,
    ),
  },
  {
    kind: 'ongoing',
    confidence: 0.65,
    pattern: re(`^(?:i |i'm |i've |we |we're )`),
    when: (clause) =>
      /^(?:currently|right now|at the moment|these days|lately|nowadays)/.test(clause.timePrefix),
  },
];

/** "Sarah, 31, a nurse from Leeds" after a name: read as "I'm 31" and "I'm a nurse from Leeds". */
function appositionEn(after: string): string[] {
  const apposition = /^\s*,\s*(.+)$/u.exec(after)?.[1];
  if (apposition === undefined) return [];
  return apposition
    .split(/\s*,\s*/u)
    .filter((item) => item !== '')
    .map((item) => (/^(?:i |i'm |i've )/iu.test(item) ? item : `I'm ${item}`));
}

/** "At work we use Linear" → "The user's team uses Linear". */
function teamContentEn(core: string): string {
  const match =
    /^(?:(at work|at my company|at my job|in my team|on my team|here),?\s+)?(my team|our team|my company|our company|my org|our org|the team|we)\s+(.*)$/iu.exec(
      core,
    );
  if (match === null) return asSentence(toThirdPersonEn(core));
  const subject = (match[2] ?? '').toLowerCase();
  const team = /company|org/.test(`${match[1] ?? ''} ${subject}`)
    ? "The user's company"
    : "The user's team";
  if (subject !== 'we')
    return asSentence(`${team} ${toThirdPersonEn(match[3] ?? '', { userNamed: true })}`);
  const shifted = toThirdPersonEn(`we ${match[3] ?? ''}`);
  return asSentence(shifted.replace(/^The user/u, team));
}

function name(first: string | undefined, rest: string | undefined): string {
  const head = first ?? '';
  return `${head.charAt(0).toUpperCase()}${head.slice(1)}${rest ?? ''}`.trim();
}

/** "From now on, answer me in French" → "The user wants the assistant to answer them in French." */
function imperativePreference(core: string): string {
  const body = core.replace(/^please\s+/i, '').replace(/[\s,]*please$/i, '');
  const negative = /^(?:don't ever|do not ever|don't|do not|never)\s+(.*)$/i.exec(body);
  const phrase = negative === null ? body : `never ${negative[1] ?? ''}`;
  const shifted = toThirdPersonEn(phrase.replace(/\byour\b/giu, 'its'), { userNamed: true });
  return asSentence(
    `The user wants the assistant to ${shifted.charAt(0).toLowerCase()}${shifted.slice(1)}`,
  );
}

export function isQuestionEn(clause: Pick<Clause, 'lower'>): boolean {
  return /^(?:what|how|why|when|where|who|which|whose|can|could|would|will|do|does|did|is|are|was|were|should|shall|may|might|have|has|any idea|you know|got any|know any)\b/.test(
    clause.lower,
  );
}
