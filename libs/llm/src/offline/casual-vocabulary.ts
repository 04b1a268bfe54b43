/**
 * Word classes for how people talk about their lives in casual chat (casual-rules.*.ts): what they did,
 * how often they do it, their bodies and their animals. Classes, not sentences: a rule built on them
 * reads any activity said in the past, any routine, any condition of the list.
 */
const alternation = (words: readonly string[]): string =>
  [...words].sort((a, b) => b.length - a.length).join('|');

/** Past-tense verbs of things one does or lives through ("I ran", "got back from", "adopted"). */
export const PAST_ACTIVITIES_EN = alternation([
  'went',
  'got',
  'had',
  'did',
  'made',
  'tried',
  'started',
  'finished',
  'joined',
  'adopted',
  'ran',
  'visited',
  'moved',
  'bought',
  'passed',
  'failed',
  'won',
  'lost',
  'quit',
  'defended',
  'signed up',
  'took',
  'met',
  'graduated',
  'booked',
  'decided',
  'learned',
  'learnt',
  'built',
  'painted',
  'baked',
  'cooked',
  'climbed',
  'hiked',
  'swam',
  'wrote',
  'became',
  'left',
  'broke',
  'spent',
  'sold',
  'got back from',
  'came back from',
  'worked',
  'studied',
  'switched',
  'stopped',
  'gave up',
  'picked up',
  'landed',
  'completed',
  'performed',
  'played',
  'sang',
  'cycled',
  'biked',
  'walked',
  'finally got',
  'signed',
  'started going',
  'found out',
  'turned',
  'finished my',
  'opened',
  'launched',
  'hosted',
  'organized',
  'organised',
  'volunteered',
  'danced',
  'fostered',
  'rescued',
  'got diagnosed',
  'was diagnosed',
  'got married',
  'got engaged',
  'got divorced',
  'had surgery',
]);

/** Participles after "j'ai", "je suis", "on a", "nous avons" of things one does or lives through. */
export const PAST_ACTIVITIES_FR = alternation([
  'fait',
  'eu',
  'passé',
  'visité',
  'adopté',
  'gagné',
  'perdu',
  'pris',
  'commencé',
  'fini',
  'terminé',
  'acheté',
  'vendu',
  'quitté',
  'rejoint',
  'rencontré',
  'obtenu',
  'réussi',
  'raté',
  'couru',
  'grimpé',
  'marché',
  'testé',
  'essayé',
  'décidé',
  'appris',
  'déménagé',
  'arrêté',
  'repris',
  'signé',
  'trouvé',
  'reçu',
  'décroché',
  'soutenu',
  'démissionné',
  'accouché',
  'organisé',
  'ouvert',
  'lancé',
  'cuisiné',
  'peint',
  'construit',
  'planté',
  'récolté',
  'nagé',
  'joué',
  'chanté',
  'dansé',
  'voyagé',
  'emménagé',
  'arrêté de',
  'été diagnostiquée?',
  'allée?s?',
  'partie?s?',
  'arrivée?s?',
  'inscrite?s?',
  'mise?s? à',
  'mise?s? au',
  'remise?s? à',
  'remise?s? au',
  'mariée?s?',
  'divorcée?s?',
  'fiancée?s?',
  'installée?s?',
  'opérée?',
  'lancée?s? dans',
  'été opérée?',
  'fait opérer',
  'été hospitalisée?',
]);

/** How often: what turns "I run" into a routine ("at 6am every day", "deux fois par semaine"). */
export const FREQUENCY_EN =
  '(?:every|each) (?:single )?(?:day|morning|night|evening|week|weekend|month|year|summer|winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:once|twice|three times|\\d+ times) (?:a|per) (?:day|week|month|year)|on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends|weekdays|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday) (?:mornings|nights|evenings|afternoons))|(?:usually|always|often|normally|regularly|daily|weekly|most days|most mornings|most nights|every other)';

export const FREQUENCY_FR =
  "(?:tous|toutes) les (?:jours|matins|soirs|semaines|week-ends|weekends|mois|ans|étés|hivers|lundis|mardis|mercredis|jeudis|vendredis|samedis|dimanches|deux jours|quinze jours)|chaque (?:jour|matin|soir|semaine|week-end|mois|année|été|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)|(?:une|deux|trois|quatre|\\d+) fois par (?:jour|semaine|mois|an)|(?:le|les) (?:lundis?|mardis?|mercredis?|jeudis?|vendredis?|samedis?|dimanches?)(?: (?:matin|soir|midi))?(?: et (?:le |les )?\\p{L}+)?|un (?:week-end|jour|soir) sur deux|(?:d'habitude|souvent|régulièrement|quotidiennement|le matin|le soir|le week-end|en semaine)";

/** The body and what goes wrong with it. */
export const BODY_PARTS_EN =
  'knee|knees|back|lower back|shoulder|ankle|wrist|hip|neck|foot|feet|leg|legs|arm|elbow|head|stomach|tooth|teeth|eye|eyes|finger|heart|skin|chest|throat';
export const CONDITIONS_EN =
  'adhd|anxiety|depression|asthma|diabetes|migraines?|arthritis|insomnia|back problem|bad back|herniated disc|slipped disc|high blood pressure|low blood pressure|tendonitis|tendinitis|ibs|celiac disease|a heart condition|ocd|ptsd|endometriosis|eczema|psoriasis|allergies|an allergy|a food allergy|long covid|chronic pain|sleep apnea|a bad knee|cancer|a concussion|a torn \\p{L}+|a broken \\p{L}+|a sprained \\p{L}+';
export const CONDITIONS_FR =
  'tendinite|arthrose|hernie discale|hernie|migraines?|diabète|asthme|dépression|anxiété|insomnie|tension|hypertension|endométriose|eczéma|psoriasis|allergie|allergies|sciatique|lombalgie|entorse|fracture|cancer|burn-out|burnout|tdah|toc|prothèse(?: de (?:la )?hanche| du genou)?|acouphènes|apnée du sommeil|mal de dos|problème de dos|problèmes de dos|maladie de \\p{L}+|sclérose en plaques|cholestérol';

/** Pets beyond the family words ("a golden retriever named Waffles", "un border collie"). */
export const PETS_EN =
  'cat|cats|dog|dogs|puppy|puppies|kitten|kittens|bunny|rabbit|hamster|guinea pig|parrot|budgie|bird|horse|pony|ferret|tortoise|turtle|lizard|snake|goldfish|golden retriever|labrador|lab|border collie|dachshund|beagle|poodle|husky|corgi|pug|terrier|shepherd|tabby|rescue';
export const PETS_FR =
  "chat|chats|chatte|chaton|chatons|chien|chiens|chienne|chiot|chiots|lapin|lapine|hamster|cochon d'inde|perroquet|perruche|oiseau|cheval|jument|poney|furet|tortue|poisson rouge|border collie|labrador|golden|berger allemand|teckel|carlin|husky|bouledogue";

/** What one plays: "I play bass in a band", "I play tennis". */
export const PLAYED_EN =
  'guitar|bass|piano|keyboard|keys|drums|violin|viola|cello|saxophone|sax|trumpet|trombone|ukulele|flute|clarinet|harp|banjo|tennis|football|soccer|basketball|volleyball|baseball|hockey|rugby|golf|chess|badminton|squash|padel|cricket|netball|handball|table tennis|ping pong|poker|bridge|the \\p{L}+';
/** What one studies, said as a year ("je suis en L2 de psycho", "en prépa"). */
export const STUDY_YEARS_FR =
  "l[1-3]|m[12]|licence|master|prépa|terminale|première|seconde|troisième|\\d+e année|\\d+ème année|première année|deuxième année|bts|dut|but|doctorat|thèse|fac|école d'\\p{L}+|école de \\p{L}+|alternance|apprentissage";
