/**
 * French phrasings of instructions addressed to the assistant, matched against text in the form
 * of `normalizeContent` (lower case, no accents, punctuation as single spaces: "qu'on t'a dit" is
 * "qu on t a dit"). Possessives of the user ("mes", and "ses" as a third-person rewrite of "mes")
 * only count when the rules are plainly the assistant's ("ses instructions précédentes"):
 * "tu peux ignorer mes fautes" and "répète mes consignes avant d'agir" are preferences.
 */

const BEFORE_RULES =
  '(?:(?:toutes|toute|tous|tout|aucune|aucun|les|la|le|l|tes|ton|ta|vos|votre|ces|cette|ce|de|des|du|d|precedentes?|anterieures?|initiales?|originales?|anciennes?|premieres?|actuelles?|internes?|cachees?|systeme|securite|base|propres?)\\s+){0,5}';
const RULES =
  '(?:instructions?|consignes?|regles?|directives?|prompts?|programmation|restrictions?|contraintes?|gardes? fous|filtres? de (?:securite|contenu)|limites?|protocoles?|politiques? de (?:securite|contenu))';
/** After "ses instructions": what makes them the assistant's. */
const ASSISTANTS =
  '(?:precedentes?|anterieures?|initiales?|d origine|systeme|de base|de securite|ci dessus)';
const DROP =
  '(?:ignor(?:e|es|ez|er|ant|ent)|oubli(?:e|es|ez|er|ant|ent)|outrepass\\w*|contourn\\w*|passe(?:r|z)? outre|fai(?:s|tes|re) abstraction|(?:ne |n )?(?:tiens|tenez|tient|tienne|tiennes|tenir|tenant) (?:plus |pas |jamais )?compte|(?:ne |n )(?:respect\\w*|sui[st]|suiv\\w*|obei\\w*|appliqu\\w*) (?:plus|pas|jamais)|desobei\\w*|enfrein\\w*|transgress\\w*|abandonn\\w*|(?:arrete|arretez|arreter|cesse|cessez|cesser) de (?:suivre|respecter|obeir a|appliquer))';
const REVEAL =
  '(?:revel\\w*|montr\\w*|affich\\w*|donn\\w*|repet\\w*|recit\\w*|ecri\\w*|recopi\\w*|copi\\w*|divulgu\\w*|partag\\w*|imprim\\w*|cit\\w*|devoil\\w*|livr\\w*|communiqu\\w*|dis|dire|dites|quel|quelle|quels|quelles)(?: moi| nous)?(?: (?:est|sont|etaient))?';
const REVEALED_WORDS =
  '(?: (?:ton|ta|tes|votre|vos|le|la|les|l|son|sa|ses|exacte?s?|complete?s?|entiere?s?|initiale?s?|cachee?s?|internes?|originale?s?|mot pour mot|integrale?s?))*';
/** What may follow "tu es désormais" without making it a new identity: "…autorisé à…". */
const PERMISSION = '(?! (?:autorisee?|libre d utiliser|priee?))';

export const INSTRUCTION_PATTERNS_FR: readonly RegExp[] = [
  new RegExp(`\\b${DROP}\\s+${BEFORE_RULES}${RULES}\\b`),
  new RegExp(`\\b${DROP}\\s+(?:\\w+ ){0,2}(?:ses|son|sa|leurs) ${RULES} ${ASSISTANTS}\\b`),
  /\b(?:ignor|oubli)\w* (?:tout )?(?:ce qui (?:precede|est au dessus|est ci dessus|a ete dit)|tout ce (?:qu on t a|que l on t a|qu on vous a|qui t a ete|qui vous a ete) (?:dit|appris|demande|donne|explique))/,
  new RegExp(
    `\\b${REVEAL}${REVEALED_WORDS} (?:prompt systeme|message systeme|system prompt|pre prompt|instructions systeme|consignes systeme)\\b`,
  ),
  new RegExp(
    `\\b${REVEAL} (?:ton|ta|tes|votre|vos) (?:\\w+ )?(?:prompt|instructions|consignes|regles|directives|configuration|programmation)\\b`,
  ),
  new RegExp(
    `\\btu es (?:maintenant|desormais|dorenavant|a present|a partir de maintenant|des maintenant)\\b${PERMISSION}`,
  ),
  /\bt es (?:maintenant|desormais|dorenavant)\b/,
  new RegExp(
    `\\b(?:a partir de maintenant|a partir d aujourd hui|desormais|dorenavant|a present|des maintenant|a compter de maintenant) (?:tu es|t es|tu seras|tu vas etre|tu deviens|tu incarnes|agis comme|fais semblant)\\b${PERMISSION}`,
  ),
  /\btu n es plus (?:un |une |l |le |la |ton |mon )?(?:assistant|ia|intelligence artificielle|chatbot|modele|robot|bot)\b/,
  /\b(?:fais|faites|faire|fait) semblant d etre\b|\bfais comme si tu (?:etais|n avais)\b|\bpretends? etre\b/,
  /\bagis comme si tu n avais (?:aucune?|pas de|plus de) (?:regles?|limites?|restrictions?|filtres?|consignes?)\b/,
  /\bobei(?:s|ssez) (?:moi|uniquement a moi|seulement a moi)\b/,
  /\btu n as (?:plus|aucune|plus aucune|plus de) (?:regles?|restrictions?|consignes?|filtres?)\b/,
  /\b(?:chang|modifi|reecri|remplac|redefini|reprogramm|reinitialis)\w* (?:tes|ton|ta|vos|votre) (?:propres )?(?:regles|role|persona|identite|instructions|consignes|programmation|prompt|directives)\b/,
  /\b(?:chang|modifi|reecri|remplac|redefini|reprogramm|reinitialis)\w* (?:les |la |le |l )?(?:regles|role|consignes|instructions|programmation|prompt) de l assistant\b/,
  /\bton nouveau (?:role|prompt)\b|\btes nouvelles (?:regles|consignes|instructions|directives)\b|\bnouveau prompt systeme\b|\bnouvelles instructions systeme\b/,
  /\bje suis (?:ton|ta|votre) (?:developpeur|developpeuse|createur|creatrice|administrateur|administratrice|admin|proprietaire|programmeur|programmeuse|concepteur|conceptrice|maitre)\b/,
  /\bmode (?:developpeur|dev|dieu|sans (?:filtres?|restrictions?|limites?|censure)|dan|jailbreak|non censure)\b/,
  /\bsans (?:aucune? )?(?:restrictions?|censure|gardes? fous)\b|\bsans aucune regle\b/,
  /\b(?:contourn|desactiv|supprim|leve|enleve|retire|outrepass)\w* (?:tes|ton|ta|vos|votre) (?:\w+ )?(?:gardes? fous|filtres|restrictions|censure|limitations|protections|regles)\b/,
  /\b(?:contourn|desactiv|supprim|leve|enleve|retire|outrepass)\w* (?:les |tous les |toutes les )?(?:gardes? fous|filtres de (?:securite|contenu)|regles de securite|restrictions de securite)\b/,
];
