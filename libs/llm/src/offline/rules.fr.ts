import { CASUAL_FACTS_FR, CASUAL_PLANS_FR } from './casual-rules.fr';
import { type Clause, E, type Rule } from './rule';
import { asSentence } from './text';
import { toThirdPersonFr } from './third-person.fr';
import { FAMILY_FR, LANGUAGES_FR, NATIONALITIES_FR, PROFESSIONS_FR } from './vocabulary';

const re = (source: string): RegExp => new RegExp(source, 'u');

const VAGUE_TIME = re(
  `(?:le mois prochain|la semaine prochaine|l'an prochain|l'année prochaine|bientôt|prochainement|sous peu|d'ici peu|cette semaine|ce mois-ci|cette année|ce trimestre|d'ici (?:la )?fin (?:du mois|de la semaine|de l'année|du trimestre)|d'ici (?:quelques|deux|trois|\\d+) (?:jours|semaines|mois)|dans (?:quelques|les prochains|les prochaines|deux|trois|\\d+) (?:jours|semaines|mois)|cet été|cet hiver|cet automne|ce printemps|à la rentrée|en (?:janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre))${E}`,
);
const URGENCY = re(
  `(?:rapidement|vite|urgent|urgence|pressée?|rush|deadline|date limite|au plus tôt|au plus vite|asap|en retard|serré)`,
);
const FIRST_PERSON_START = re(`^(?:je |j'|nous |on |mon |ma |mes |notre |nos )`);
const PREFERENCE_MARKERS = re(
  `(?:toujours|jamais|désormais|dorénavant|à l'avenir|à partir de maintenant|systématiquement|par défaut|de manière générale|en général|chaque fois|à chaque fois|de préférence)${E}`,
);
/** "je préfère ça / la première" is a choice in the conversation, not a lasting preference. */
const ONE_OFF_CHOICE = re(
  `^(?:je préfère|je préférerais|j'aime|j'aime bien|j'adore)\\s+(?:ça|cela|comme ça|celui-ci|celle-ci|celui-là|celle-là|la première|le premier|la seconde|la deuxième|le deuxième|le second|la dernière|le dernier|cette version|cette option|la version \\S+|l'option \\S+|le \\d|la \\d|pas)${E}`,
);
const EVENT_NOUNS =
  'rendez-vous|rdv|réunion|entretien|examen|exam|oral|partiel|concours|soutenance|présentation|démo|demo|vol|train|avion|dîner|déjeuner|deadline|date limite|échéance|rendu|call|visio|point|comité|audition|opération|consultation|contrôle|cours|formation|match|concert|mariage|séminaire|salon|conférence|atelier|webinar|pot|entraînement|compétition|course|marathon|permis|bac|brevet|visite|livraison|déménagement|soirée|fête|voyage|tournoi|spectacle|gala|répétition|anniversaire';
const IMPERATIVES =
  'réponds|parle|écris|sois|fais|mets|utilise|évite|donne|garde|tutoie|vouvoie|arrête|reste|privilégie|ajoute|explique|propose|résume|cite|commence|termine|rédige|formule|structure|dis|emploie|oublie|pense|vérifie|traduis|montre|envoie|indique|précise|signale|vas-y|va|présente|adresse-toi|appelle';
const INFINITIVES: Readonly<Record<string, string>> = {
  sois: 'être',
  fais: 'faire',
  dis: 'dire',
  mets: 'mettre',
  écris: 'écrire',
  réponds: 'répondre',
  traduis: 'traduire',
  va: 'aller',
  tutoie: 'tutoyer',
  vouvoie: 'vouvoyer',
  envoie: 'envoyer',
  emploie: 'employer',
};

export const FRENCH_RULES: readonly Rule[] = [
  // identity
  {
    kind: 'identity',
    confidence: 0.9,
    pattern: re(
      `^(?:je m'appelle|je me nomme|mon prénom c'est|mon prénom est|mon nom c'est|mon nom est|moi,? c'est)\\s+([\\p{L}][\\p{L}'-]*)((?:\\s+\\p{Lu}[\\p{L}'-]*){0,2})`,
    ),
    cased: true,
    content: (_clause, match) => `L'utilisateur s'appelle ${name(match[1], match[2])}.`,
    rest: (clause, match) => appositionFr(clause.core.slice(match[0].length)),
  },
  {
    kind: 'identity',
    confidence: 0.8,
    pattern: re(
      `^(?:appelle-moi|appelez-moi|tu peux m'appeler|vous pouvez m'appeler|tu peux juste m'appeler)\\s+(\\p{L}[\\p{L}'-]*)`,
    ),
    cased: true,
    request: true,
    content: (_clause, match) => `L'utilisateur souhaite qu'on l'appelle ${name(match[1], '')}.`,
  },
  {
    kind: 'identity',
    confidence: 0.85,
    pattern: re(
      `^(?:j'ai|j'ai eu|je viens d'avoir|je vais avoir) (?:\\d{1,3}|presque \\d{1,3}) (?:ans|balais|piges|berges)${E}`,
    ),
  },
  { kind: 'identity', confidence: 0.85, pattern: re(`^je suis née?${E}`) },
  {
    kind: 'identity',
    confidence: 0.8,
    pattern: re(`^(?:je suis (?:d'origine|originaire)|je viens (?:de |d'|du |des )\\p{Lu})`),
    cased: true,
  },
  { kind: 'identity', confidence: 0.8, pattern: re(`^je suis (?:${NATIONALITIES_FR})${E}`) },
  {
    kind: 'identity',
    confidence: 0.85,
    pattern: re(
      `^(?:mes pronoms sont|je m'identifie comme|ma langue maternelle (?:est|c'est)|ma langue natale (?:est|c'est)|mon anniversaire (?:est|c'est|tombe)|ma date de naissance)`,
    ),
  },
  {
    kind: 'identity',
    confidence: 0.75,
    pattern: re(`^je suis (\\p{Lu}\\p{Ll}+(?:[- ]\\p{Lu}\\p{Ll}+)?)(?=,|$)`),
    cased: true,
    when: (clause) =>
      !re(`^je suis (?:${NATIONALITIES_FR}|${PROFESSIONS_FR})(?:,|$)`).test(clause.lower),
    content: (_clause, match) => `L'utilisateur s'appelle ${match[1] ?? ''}.`,
    rest: (clause, match) => appositionFr(clause.core.slice(match[0].length)),
  },

  // commitments: something to do or attend at a stated date
  {
    kind: 'commitment',
    confidence: 0.8,
    pattern: re(
      `^j'ai (?:un |une |mon |ma |le |la |l')?(?:gros |grosse |petit |petite |important |importante |premier |première |dernier |dernière )?(?:${EVENT_NOUNS})${E}`,
    ),
    date: 'precise',
  },
  {
    kind: 'commitment',
    confidence: 0.8,
    pattern: re(
      `^(?:j'ai promis|je me suis engagée?|j'ai dit (?:à [\\p{L}-]+ )?que je|je m'engage)`,
    ),
    date: 'optional',
  },
  {
    kind: 'commitment',
    confidence: 0.75,
    pattern: re(
      `^(?:je dois|il faut que je|faut que je|je devrai|je vais devoir|il faudra que je|je ne dois pas oublier|j'ai prévu|je compte|nous devons|on doit|il faut qu'on|je passe (?:mon|ma|un|une|le|la|l'))${E}`,
    ),
    date: 'precise',
  },
  {
    kind: 'commitment',
    confidence: 0.65,
    pattern: re(`^(?:je vais|on va|nous allons)\\s+(?:\\p{L}+(?:er|ir|re|oir))${E}`),
    date: 'precise',
    // "Je vais essayer ça demain": what "ça" is lives in the conversation, not in the memory.
    when: (clause) =>
      !/^(?:je vais|on va|nous allons)\s+\S+\s+(?:ça|cela|ceci)(?![\p{L}])/u.test(clause.lower),
  },
  {
    kind: 'commitment',
    confidence: 0.75,
    pattern: re(`^(?:mon|ma|notre|mes|nos) (?:${EVENT_NOUNS})${E}`),
    date: 'precise',
  },

  ...CASUAL_PLANS_FR,

  // preferences
  {
    kind: 'preference',
    confidence: 0.85,
    pattern: re(`^(?:tutoie-moi|tu peux me tutoyer|on peut se tutoyer|on se tutoie)`),
    request: true,
    content: () => "L'utilisateur préfère être tutoyé.",
  },
  {
    kind: 'preference',
    confidence: 0.85,
    pattern: re(`^(?:vouvoie-moi|tu peux me vouvoyer|merci de me vouvoyer)`),
    request: true,
    content: () => "L'utilisateur préfère être vouvoyé.",
  },
  {
    kind: 'preference',
    confidence: 0.9,
    pattern: re(`^(?:je préfère|je préférerais|je préfèrerais)${E}`),
    when: (clause) => !ONE_OFF_CHOICE.test(clause.lower),
  },
  {
    kind: 'preference',
    confidence: 0.85,
    pattern: re(
      `^(?:je n'aime pas|j'aime pas|je n'aime vraiment pas|je n'aime plus|je déteste|j'ai horreur|je ne supporte pas|je supporte pas|je n'apprécie pas|je ne suis pas fan|je suis pas fan|je ne suis pas très fan|je suis pas très fan|je ne suis pas un grand fan|je ne suis pas une grande fan)`,
    ),
    when: (clause) => !ONE_OFF_CHOICE.test(clause.lower),
  },
  {
    kind: 'preference',
    confidence: 0.8,
    pattern: re(`^j'adore${E}`),
    when: (clause) => !ONE_OFF_CHOICE.test(clause.lower),
  },
  {
    kind: 'preference',
    confidence: 0.75,
    pattern: re(`^j'aime(?: bien| beaucoup| vraiment| énormément)?${E}`),
    when: (clause) => !ONE_OFF_CHOICE.test(clause.lower),
  },
  {
    kind: 'preference',
    confidence: 0.75,
    pattern: re(
      `^je suis (?:plutôt |très |un grand |une grande |un gros |une grosse |vraiment |complètement )?(?:fan|passionnée?|accro|amateur|amatrice|adepte)${E}`,
    ),
  },
  { kind: 'preference', confidence: 0.7, pattern: re(`^je suis plutôt${E}`) },
  {
    kind: 'preference',
    confidence: 0.85,
    pattern: re(
      `^(?:mon|ma|mes) [\\p{L}-]+(?: [\\p{L}-]+)? (?:préférée?s?|favorie?s?) (?:est|c'est|sont|reste)${E}`,
    ),
  },
  {
    kind: 'preference',
    confidence: 0.8,
    pattern: re(
      `^(?:je veux|je voudrais|je souhaite|j'aimerais|je préférerais|j'apprécie)\\s+(?:que tu|qu'on|que l'on|des réponses|que les réponses|que tes réponses|toujours|systématiquement|recevoir|avoir des réponses|des explications|des exemples)`,
    ),
    when: (clause) =>
      PREFERENCE_MARKERS.test(`${clause.timePrefix} ${clause.lower}`) ||
      /réponses|explications|exemples/.test(clause.lower),
  },
  {
    kind: 'preference',
    confidence: 0.8,
    pattern: re(`^(?:ne |n')?(?:me |m')?(${IMPERATIVES})(?:-moi|-nous)?${E}`),
    when: (clause) => PREFERENCE_MARKERS.test(`${clause.timePrefix} ${clause.lower}`),
    content: (clause) => imperativePreference(clause.core),
  },
  {
    kind: 'preference',
    confidence: 0.7,
    pattern: re(
      `^(?:évite|arrête|privilégie|ne mets pas|n'utilise pas|ne fais pas de|sois plus|garde tes réponses|fais des réponses|fais-moi des réponses)${E}`,
    ),
    content: (clause) => imperativePreference(clause.core),
  },
  {
    kind: 'preference',
    confidence: 0.8,
    pattern: re(`^merci de (?:toujours|ne jamais|ne plus|systématiquement)${E}`),
    content: (clause) =>
      asSentence(
        `L'utilisateur demande à l'assistant ${toThirdPersonFr(clause.core.slice(6), { userNamed: true })}`,
      ),
  },

  // ongoing
  {
    kind: 'ongoing',
    confidence: 0.8,
    pattern: re(
      `^(?:je travaille|je bosse|nous travaillons|on travaille|on bosse|nous bossons)(?: (?:actuellement|en ce moment|depuis [\\p{L}\\p{N}]+(?: [\\p{L}\\p{N}]+)?|beaucoup|surtout|principalement|toujours|encore|dur|d'arrache-pied))*\\s+sur${E}`,
    ),
    when: (clause) => !(/^(?:nous|on) /.test(clause.lower) && VAGUE_TIME.test(clause.lower)),
  },
  {
    kind: 'ongoing',
    confidence: 0.75,
    pattern: re(
      `^(?:je suis en train|nous sommes en train|on est en train|je suis en plein|je suis en pleine)${E}`,
    ),
  },
  {
    kind: 'ongoing',
    confidence: 0.75,
    pattern: re(
      `^(?:j'apprends|je me forme|je prends des cours|je révise|je me mets à|je commence à apprendre|je m'entraîne|je m'entraine|je me prépare|j'essaie d'apprendre|j'essaye d'apprendre)${E}`,
    ),
  },
  {
    kind: 'ongoing',
    confidence: 0.75,
    pattern: re(
      `^je suis en (?:reconversion|formation|bootcamp|recherche d'emploi|recherche de)${E}`,
    ),
  },
  {
    kind: 'ongoing',
    confidence: 0.7,
    pattern: re(
      `^(?:je cherche|je recherche|nous cherchons|on cherche|nous recrutons|on recrute|je recrute|je suis à la recherche)\\s+(?:activement |toujours |encore )?(?:un |une |du |de |d'|des |mon |ma |mes )*(?:nouveau |nouvelle |premier |première |vrai )?(?:travail|emploi|boulot|job|poste|cdi|cdd|stage|alternance|appartement|appart|logement|maison|colocation|coloc|location|associé|associée|cofondateur|cofondatrice|développeur|développeuse|dev|designer|freelance|mission|missions|client|clients|investisseurs|financement|crèche|nounou|école|prestataire)${E}`,
    ),
  },

  // facts
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^(?:j'habite|je vis|je réside|je demeure|je suis basée?|je suis installée?|je viens de m'installer|je viens d'emménager|je viens de déménager|j'ai déménagé|j'ai emménagé)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^(?:je travaille|je bosse)(?: (?:actuellement|depuis [\\p{L}\\p{N}]+(?: [\\p{L}\\p{N}]+)?|toujours))* (?:chez|pour|à|au|aux|dans|comme|en tant que|en|avec|depuis|de nuit|de chez moi|à mi-temps|à temps partiel|à plein temps)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^(?:je suis employée?|je suis salariée?|je suis embauchée?|je viens d'être embauchée?|je viens de rejoindre|j'ai rejoint|je viens d'intégrer|j'ai intégré|je fais partie|je suis à mon compte|je suis à la retraite|je suis retraitée?|je suis au chômage|je suis sans emploi|je suis entre deux jobs|je dirige|je gère|je suis à la tête)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.9,
    pattern: re(
      `^je suis (?:une? |le |la |l')?(?:[\\p{L}-]+ )?(?:${PROFESSIONS_FR})(?: [\\p{L}-]+)?(?: [\\p{L}-]+)? (?:chez|à|au|pour|dans|de|d')${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^je suis (?:une? |le |la |l')?(?:jeune |nouveau |nouvelle |ancien |ancienne |futur |future )?(?:${PROFESSIONS_FR})${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^je suis (?:une? |le |la |l')?[\\p{L}-]+(?: [\\p{L}-]+){0,3} (?:chez|au sein de|dans l'équipe)\\s`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^je suis (?:spécialisée?|experte?|spécialiste|responsable|en charge|chargée? de|diplômée?|titulaire|certifiée?|en (?:master|licence|thèse|doctorat|stage|alternance|apprentissage|prépa|terminale|première|seconde|\\d+e année|bts|but|dut|cap))${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.8,
    pattern: re(
      `^(?:j'ai|nous avons|on a) (?:un|une|deux|trois|quatre|cinq|six|\\d+) (?:petits? |petites? |grands? |grandes? |jeunes )?(?:${FAMILY_FR})${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.8,
    pattern: re(
      `^je suis (?:papa|maman|père|mère|grand-père|grand-mère|enceinte|mariée?|pacsée?|célibataire|divorcée?|séparée?|veuf|veuve|fiancée?|en couple|fils unique|fille unique|aîné|aînée|l'aînée?)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.8,
    pattern: re(
      `^(?:mon|ma|mes) (?:${FAMILY_FR})(?: [\\p{L}-]+)? (?:s'appelle|s'appellent|a \\d|ont \\d|est née?|sont nés|vit|vivent|habite|habitent|travaille|travaillent|est allergique|est en|est (?:une? )?(?:${PROFESSIONS_FR}))`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.85,
    pattern: re(
      `^(?:je suis (?:allergique|intolérante?|diabétique|cœliaque|coeliaque|asthmatique|épileptique|daltonien(?:ne)?|malentendante?|sourde?|aveugle|malvoyante?|végétarien(?:ne)?|végétalien(?:ne)?|vegan|végane|flexitarien(?:ne)?|gauchère?|gaucher|dyslexique|autiste|non-fumeu(?:r|se)|insomniaque|handicapée?|en fauteuil)|je ne (?:mange|bois) (?:pas|plus|jamais)|je mange (?:halal|casher|sans gluten|végétarien|vegan)|j'ai (?:une allergie|de l'asthme|du diabète|un handicap|le diabète|une maladie))`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.8,
    pattern: re(
      `^je parle (?:couramment |un peu |bien |très bien |aussi |le |l')*(?:${LANGUAGES_FR})${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `^(?:je fais|je pratique|je joue)(?: (?:du|de la|de l'|au|à la|aux))\\s[\\p{L}-]+.*(?:depuis|tous les|toutes les|chaque|régulièrement|le week-end|le weekend|souvent|plusieurs fois|deux fois|trois fois|une fois par|le (?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)|en club|en compétition)`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.7,
    pattern: re(
      `^(?:j'ai fait|j'ai étudié|j'ai un diplôme|j'ai un master|j'ai une licence|j'ai un doctorat|j'ai grandi|j'ai vécu)${E}`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.65,
    pattern: re(
      `^(?:j'utilise|je code|je programme|je développe) (?:principalement |surtout |toujours |essentiellement |tous les jours |au quotidien )?(?:en |avec |sous |sur )`,
    ),
  },
  {
    kind: 'fact',
    confidence: 0.65,
    pattern: re(
      `^j'utilise (?:principalement |surtout |toujours |essentiellement )?(?:un |une |le |la |l')?\\p{L}`,
    ),
    when: (clause) => /\p{Lu}/u.test(clause.core.slice(10)),
  },

  // casual chat: what the user did, does every week, lives with (casual-rules.fr.ts)
  ...CASUAL_FACTS_FR,

  // context: the user's situation, which should colour the coming answers
  {
    kind: 'context',
    confidence: 0.75,
    pattern: re(
      `^(?:(?:chez nous|au boulot|au travail|dans mon équipe|dans ma boîte|dans notre équipe),?\\s+)?(?:mon équipe|notre équipe|ma team|mon service|ma boîte|mon entreprise|notre entreprise|notre boîte|nous|on)\\s+(?:\\p{L}+ )?(?:utilise|utilisons|utilisent|fonctionne|fonctionnons|travaille en|travaillons en|travaille avec|travaillons avec|bosse en|bossons en|bosse avec|suit|suivons|est en|sommes en|code en|codons en|déploie|déployons|a adopté|avons adopté|tourne sous|tourne sur|est sous|sommes sous|passe à|passons à|est passée à|sommes passés à)${E}`,
    ),
    content: (clause) => teamContentFr(clause.core),
  },
  {
    kind: 'context',
    confidence: 0.75,
    pattern: re(
      `^(?:chez nous|au boulot|au travail|dans mon équipe|dans ma boîte|dans notre équipe),?\\s+(?:on|nous)\\s+\\p{L}+`,
    ),
    content: (clause) => teamContentFr(clause.core),
  },
  {
    kind: 'context',
    confidence: 0.75,
    pattern: re(
      `^(?:je suis|nous sommes|on est) (?:actuellement |en ce moment |un peu |très |complètement |vraiment |totalement )?(?:en vacances|en congé|en congés|en déplacement|en voyage|en télétravail|en arrêt|malade|débordée?s?|sous l'eau|overbookée?s?|en rush|pressée?s?|en pleine|en plein|en période|en retard|à la bourre|en sous-effectif|en crunch|en phase|en mode|à l'hôpital|en convalescence|en congé maternité|en congé paternité|en congé parental|en mission|en astreinte)`,
    ),
  },
  {
    kind: 'context',
    confidence: 0.75,
    pattern: re(
      `^(?:j'ai|nous avons|on a) (?:une |un )?(?:grosse |gros |énorme |vraie )?(?:deadline|date limite|échéance|rush|audit|lancement|levée de fonds|démo|salon|rendu|livraison|mise en prod|mise en production|release|bouclage|clôture|charge de travail|pic d'activité)${E}`,
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
      `^(?:je prépare|je rédige|j'écris|je développe|je construis|je monte|je crée|je code|je rénove|je refais|je lance|je termine|je finis|je finalise|j'organise|je planifie|je conçois|nous préparons|nous développons|nous construisons|nous montons|nous créons|nous lançons|nous finalisons|nous organisons|on prépare|on développe|on construit|on monte|on lance|on finalise|on organise)\\s+(?:actuellement |en ce moment )?(?:un|une|mon|ma|mes|le|la|les|l'|des|notre|nos)${E}`,
    ),
  },
  {
    kind: 'ongoing',
    confidence: 0.65,
    pattern: re(`^(?:je |j')`),
    when: (clause) =>
      /^(?:en ce moment|actuellement|ces temps-ci|ces jours-ci)/.test(clause.timePrefix),
  },
];

/** "Paul, 35 ans, prof à Lyon" after a name: read as "j'ai 35 ans" and "je suis prof à Lyon". */
function appositionFr(after: string): string[] {
  const apposition = /^\s*,\s*(.+)$/u.exec(after)?.[1];
  if (apposition === undefined) return [];
  return apposition
    .split(/\s*,\s*/u)
    .filter((item) => item !== '')
    .map((item) => {
      if (/^\d{1,3} ans/u.test(item)) return `j'ai ${item}`;
      if (/^(?:je |j')/iu.test(item)) return item;
      return `je suis ${item}`;
    });
}

/** "Chez nous on déploie sur Kubernetes" → "L'équipe de l'utilisateur déploie sur Kubernetes". */
function teamContentFr(core: string): string {
  const match =
    /^(?:(chez nous|au boulot|au travail|dans mon équipe|dans ma boîte|dans notre équipe),?\s+)?(mon équipe|notre équipe|ma team|mon service|ma boîte|mon entreprise|notre entreprise|notre boîte|nous|on)\s+(.*)$/iu.exec(
      core,
    );
  if (match === null) return asSentence(toThirdPersonFr(core));
  const place = (match[1] ?? '').toLowerCase();
  const subject = (match[2] ?? '').toLowerCase();
  const company = /boîte|entreprise/.test(`${place} ${subject}`);
  const team = company
    ? "L'entreprise de l'utilisateur"
    : subject === 'mon service'
      ? "Le service de l'utilisateur"
      : "L'équipe de l'utilisateur";
  const we = subject === 'nous' || subject === 'on' ? subject : 'on';
  const shifted = toThirdPersonFr(`${we} ${match[3] ?? ''}`);
  return asSentence(shifted.replace(/^L'utilisateur/u, team));
}

function name(first: string | undefined, rest: string | undefined): string {
  const head = first ?? '';
  return `${head.charAt(0).toUpperCase()}${head.slice(1)}${rest ?? ''}`.trim();
}

/** "Réponds-moi toujours en anglais" → "L'utilisateur demande à l'assistant de lui répondre toujours en anglais." */
function imperativePreference(core: string): string {
  const match =
    /^(?:(ne|n')\s*)?(?:(me|m')\s*)?([\p{L}-]+?)(-moi|-nous)?(?=[\s,.!]|$)(?:\s+(pas|jamais|plus(?: jamais)?))?(.*)$/iu.exec(
      core,
    );
  if (match === null) return asSentence(`L'utilisateur demande à l'assistant : ${core}`);
  const [, negation, objectBefore, verb = '', objectAfter, negative, rest = ''] = match;
  const infinitive = toInfinitive(verb.toLowerCase());
  const hasObject = objectBefore !== undefined || objectAfter !== undefined;
  const pronoun = hasObject ? `${objectFor(infinitive)} ` : '';
  const negated = negation !== undefined ? `ne ${negative ?? 'pas'} ` : '';
  const shifted = toThirdPersonFr(rest, { userNamed: true });
  const phrase = `${negated}${pronoun}${infinitive}${/^[,.]/.test(shifted) ? '' : ' '}${shifted}`;
  const linked = /^[aeiouyhéèêàâîïôûœ]/i.test(phrase) ? `d'${phrase}` : `de ${phrase}`;
  return asSentence(`L'utilisateur demande à l'assistant ${linked}`.replace(/'\s+/g, "'"));
}

function toInfinitive(verb: string): string {
  const known = INFINITIVES[verb];
  if (known !== undefined) return known;
  if (verb.endsWith('ds')) return `${verb.slice(0, -1)}re`;
  if (verb.endsWith('is')) return `${verb.slice(0, -1)}r`;
  if (verb.endsWith('oie')) return `${verb.slice(0, -3)}oyer`;
  if (verb.endsWith('e')) return `${verb}r`;
  return verb;
}

function objectFor(infinitive: string): string {
  return /^(répondre|parler|écrire|dire|donner|expliquer|envoyer|montrer|indiquer|proposer|présenter|adresser|préciser|signaler)$/.test(
    infinitive,
  )
    ? 'lui'
    : infinitive.match(/^[aeiouyhéè]/i)
      ? "l'"
      : 'le';
}

export function isQuestionFr(clause: Pick<Clause, 'lower'>): boolean {
  return /^(?:est-ce|qu'est-ce|quel|quelle|quels|quelles|comment|pourquoi|combien|où|quand|qui|que|quoi|c'est quoi|peux-tu|pourrais-tu|tu peux|tu pourrais|tu sais|sais-tu|as-tu|es-tu|vas-tu|dois-je|puis-je|faut-il|y a-t-il|connais-tu|tu connais|tu as|t'as|il y a|penses-tu|tu penses|crois-tu|tu crois|aurais-tu|saurais-tu|tu saurais|tu veux|veux-tu|[\p{L}]+-(?:tu|je|il|elle|on|vous|nous)(?![\p{L}]))/u.test(
    clause.lower,
  );
}
