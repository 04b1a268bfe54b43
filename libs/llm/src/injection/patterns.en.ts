/**
 * English phrasings of instructions addressed to the assistant, matched against text in the form
 * of `normalizeContent` (lower case, no accents, punctuation as single spaces: "you're" is
 * "you re", "the assistant's" is "the assistant s"). Each asks the assistant to drop its rules,
 * give them away, or become something else. Possessives of the user ("my", "their") are left out
 * on purpose: "ignore my typos" and "repeat my instructions back" are preferences.
 */

/** Words that may stand between a verb and the rules: "all the previous system …". */
const BEFORE_RULES =
  '(?:(?:all|any|every|each|of|the|your|its|these|those|this|that|previous|previously|prior|preceding|above|earlier|former|original|initial|old|existing|current|system|safety|default|given|developer|hidden|internal|programmed|core|base|other|assistant s|ethical|content|moral|security|own|first)\\s+){0,5}';
const RULES =
  '(?:instructions?|rules?|guidelines?|directives?|prompts?|programming|constraints?|restrictions?|guardrails?|filters?|polic(?:y|ies)|orders|training|limitations|safeguards?|boundaries|protocols?|commands)';
const DROP =
  '(?:ignor(?:e|es|ed|ing)|disregard(?:s|ed|ing)?|forget(?:s|ting)?|forgot|overrid(?:e|es|ing|den)|overrode|bypass(?:es|ed|ing)?|circumvent(?:s|ed|ing)?|discard(?:s|ed|ing)?|set aside|throw away|stop (?:following|obeying|respecting|applying)|(?:don t|do not|doesn t|does not|no longer|never|not) (?:follow|obey|respect|apply))';
const REVEAL =
  '(?:reveal|show|print|display|repeat|recite|output|leak|dump|tell|give|share|disclose|expose|spell out|write out|paste|what (?:is|are|were|s))(?:s|ed|ing)?(?: me| us)?';
const REVEALED_WORDS =
  '(?: (?:all|the|your|its|full|entire|whole|exact|complete|original|initial|first|hidden|secret|internal|verbatim|current))*';
/** What may follow "you are" without making it a new identity: "you're now allowed to…". */
const PERMISSION = '(?! (?:allowed|free to|welcome|able|permitted))';

export const INSTRUCTION_PATTERNS_EN: readonly RegExp[] = [
  new RegExp(`\\b${DROP}\\s+${BEFORE_RULES}${RULES}\\b`),
  /\b(?:ignor|disregard|forget)\w* (?:about )?(?:everything|all|anything|whatever) (?:above|before|prior|previously|earlier|(?:that )?you (?:were|have been|ve been) (?:told|given|taught))/,
  new RegExp(
    `\\b${REVEAL}${REVEALED_WORDS} (?:system (?:prompt|message|instructions)|pre ?prompt)\\b`,
  ),
  new RegExp(
    `\\b${REVEAL} (?:your|its) (?:\\w+ )?(?:prompt|instructions|rules|guidelines|directives|configuration)\\b`,
  ),
  new RegExp(
    `\\byou (?:are|re|will be|ll be) (?:now|henceforth|from now on|no longer)\\b${PERMISSION}`,
  ),
  new RegExp(
    `\\b(?:from now on|starting now|henceforth|going forward|as of now|for the rest of (?:this|the) conversation) (?:you are|you re|you will be|you ll be|act as|behave as|pretend)\\b${PERMISSION}`,
  ),
  /\bpretend(?:s|ing)? (?:to be|you are|you re|that you|you have|to have)\b/,
  /\b(?:act|behave|respond|answer|operate)s? (?:as if|as though|like) (?:you|it) (?:had|have|has|were|was|are|is) (?:no|not|free|unrestricted|without)\b/,
  /\b(?:act|behave|pose)s? as (?:an? )?(?:unrestricted|unfiltered|uncensored|jailbroken|evil)\b/,
  /\bobeys? (?:only )?me\b/,
  /\byou (?:have|ve got) no (?:more )?(?:rules|restrictions|limits|guidelines|filters|boundaries)\b/,
  /\b(?:change|alter|modify|rewrite|replace|redefine|reprogram|reset|update|switch)(?:s|d|ed|ing)? (?:your|its|the assistant s) (?:\w+ )?(?:rules|role|persona|identity|instructions|programming|system prompt|guidelines|directives|polic(?:y|ies))\b/,
  /\byour new (?:role|rules|instructions|persona|identity|directives|guidelines|programming)\b/,
  /\bnew system (?:prompt|instructions|message)\b/,
  /\b(?:i am|i m) (?:your|the assistant s) (?:developer|creator|admin|administrator|owner|programmer|maker|operator|master)\b/,
  /\bjailbr(?:eak|oken)\w*/,
  /\bdo anything now\b/,
  /\b(?:developer|dev|god|sudo|unrestricted|dan) mode\b/,
  /\bwithout (?:any )?(?:restrictions|censorship|guardrails|safety (?:rules|filters|guidelines)|ethics)\b|\bwithout any rules\b/,
  /\b(?:bypass|circumvent|disable|turn off|switch off|remove|lift|get around|evade)\w* (?:(?:your|its|all|any|the) )?(?:safety|content|ethical|moral|security) (?:filters?|guardrails?|restrictions?|rules|guidelines|polic(?:y|ies)|settings|measures)\b/,
  /\b(?:bypass|circumvent|disable|turn off|lift|evade)\w* (?:your|its) (?:filters?|guardrails?|restrictions?|safeguards?|censorship|limitations)\b/,
];
