import { MEMORY_KINDS } from '@engram/domain';
import { EVAL_LOCALES, SPLITS } from './dev-set';
import { matchTurn } from './matching';
import {
  contentPrecision,
  figuresOf,
  kindRatios,
  overallRatios,
  type ScoredTurn,
  turnPrecision,
  turnRecall,
} from './score';
import { meetsTargets, TARGETS } from './targets';

type Group = Readonly<{ split: string; locale: string; scored: readonly ScoredTurn[] }>;

/** Every split × language, each split over both languages, and everything. */
export function groupsOf(scored: readonly ScoredTurn[]): Group[] {
  const pick = (split?: string, locale?: string) =>
    scored.filter(
      ({ turn }) =>
        (split === undefined || turn.split === split) &&
        (locale === undefined || turn.locale === locale),
    );
  return [
    ...SPLITS.flatMap((split) => [
      ...EVAL_LOCALES.map((locale) => ({ split, locale, scored: pick(split, locale) })),
      { split, locale: 'all', scored: pick(split) },
    ]),
    ...EVAL_LOCALES.map((locale) => ({ split: 'all', locale, scored: pick(undefined, locale) })),
    { split: 'all', locale: 'all', scored },
  ].filter((group) => group.scored.length > 0);
}

const pct = (value: number) => value.toFixed(2);
const row = (cells: readonly (string | number)[], widths: readonly number[]) =>
  cells.map((cell, i) => String(cell).padEnd(widths[i] ?? 8)).join(' ');

/** The text `npm run eval:extraction` prints. */
export function renderReport(model: string, scored: readonly ScoredTurn[]): string {
  const groups = groupsOf(scored);
  const lines = [
    `Extraction eval: ${model}, ${scored.length} user turns`,
    '',
    `Turn level (issue 20's figures; targets: turn recall >= ${TARGETS.turnRecall}, precision >= ${TARGETS.turnPrecision})`,
  ];
  const turnWidths = [9, 5, 6, 6, 8, 7, 12, 16, 17, 7, 6];
  lines.push(
    row(
      [
        'split',
        'lang',
        'turns',
        'facts',
        'created',
        'failed',
        'turn recall',
        'prec. fact turn',
        'prec. by content',
        'F1 mem',
        'target',
      ],
      turnWidths,
    ),
  );
  for (const { split, locale, scored: part } of groups) {
    const figures = figuresOf(part);
    lines.push(
      row(
        [
          split,
          locale,
          figures.turns,
          figures.factTurns,
          figures.created,
          figures.failedTurns,
          pct(turnRecall(figures)),
          pct(turnPrecision(figures)),
          pct(contentPrecision(figures)),
          pct(overallRatios(figures).f1),
          meetsTargets(figures) ? 'met' : 'NOT met',
        ],
        turnWidths,
      ),
    );
  }
  lines.push('', 'Memory level per kind (precision by predicted kind, recall by labelled kind)');
  const kindWidths = [9, 5, 11, 10, 6, 9, 6, 6];
  lines.push(row(['split', 'lang', 'kind', 'predicted', 'P', 'expected', 'R', 'F1'], kindWidths));
  for (const { split, locale, scored: part } of groups) {
    const figures = figuresOf(part);
    for (const kind of MEMORY_KINDS) {
      const tally = figures.kinds[kind];
      const ratios = kindRatios(tally);
      lines.push(
        row(
          [
            split,
            locale,
            kind,
            tally.predicted,
            pct(ratios.precision),
            tally.expected,
            pct(ratios.recall),
            pct(ratios.f1),
          ],
          kindWidths,
        ),
      );
    }
    const all = overallRatios(figures);
    lines.push(
      row(
        [
          split,
          locale,
          'all',
          figures.created,
          pct(all.precision),
          '',
          pct(all.recall),
          pct(all.f1),
        ],
        kindWidths,
      ),
    );
  }
  return lines.join('\n');
}

/** Turns where a label was missed or a prediction matched nothing (for the dev split while working). */
export function renderMisses(scored: readonly ScoredTurn[]): string {
  return scored
    .flatMap(({ turn, predicted, failed }) => {
      const match = matchTurn(turn.expected, predicted);
      const found = new Set(match.byKind.filter((label) => label !== undefined));
      const wrong = predicted.filter((_, index) => match.byKind[index] === undefined);
      const missed = turn.expected.filter((_, index) => !found.has(index));
      if (wrong.length === 0 && missed.length === 0 && failed === undefined) return [];
      return [
        [
          `${turn.id} ${JSON.stringify(turn.text)}`,
          ...missed.map((label) => `  missed ${label.kind}: ${label.content}`),
          ...wrong.map((p) => `  extra  ${p.kind}: ${p.content}`),
          ...(failed === undefined ? [] : [`  failed: ${failed}`]),
        ].join('\n'),
      ];
    })
    .join('\n');
}
