import type { EntityManager } from 'typeorm';
import { IdentityCard } from './identity-cards.entity';

export type IdentityCardToRegenerate = {
  workspaceId: string;
  userId: string;
  dirtyPosition: string;
};

export async function findIdentityCard(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<IdentityCard | null> {
  return manager.findOne(IdentityCard, { where: { workspaceId, userId } });
}

/**
 * Cards whose memories changed, last generated at or before $1. `dirty_position > based_on_position`
 * is the predicate of the partial index identity_cards_to_regenerate.
 */
const IDENTITY_CARDS_TO_REGENERATE = `
       FROM identity_cards
      WHERE dirty_position > based_on_position
        AND (generated_at IS NULL OR generated_at <= $1)`;

/**
 * Cards whose approved memories changed since they were generated, and last generated at or before
 * `generatedBefore` (never regenerated more often than the worker allows), stalest first. For the
 * regeneration worker, which runs as the projector role and sees every user's card.
 */
export async function findIdentityCardsToRegenerate(
  manager: EntityManager,
  generatedBefore: Date,
  limit: number,
): Promise<IdentityCardToRegenerate[]> {
  if (limit <= 0) return [];
  const rows = await manager.query<
    { workspace_id: string; user_id: string; dirty_position: string }[]
  >(
    `SELECT workspace_id, user_id, dirty_position ${IDENTITY_CARDS_TO_REGENERATE}
      ORDER BY dirty_at, workspace_id, user_id
      LIMIT $2`,
    [generatedBefore, limit],
  );
  return rows.map((row) => ({
    workspaceId: row.workspace_id,
    userId: row.user_id,
    dirtyPosition: row.dirty_position,
  }));
}

/** How many cards `findIdentityCardsToRegenerate` has left to hand out (the job's backlog). */
export async function countIdentityCardsToRegenerate(
  manager: EntityManager,
  generatedBefore: Date,
): Promise<number> {
  const rows = await manager.query<{ count: string }[]>(
    `SELECT count(*) AS count ${IDENTITY_CARDS_TO_REGENERATE}`,
    [generatedBefore],
  );
  return Number(rows[0]?.count ?? 0);
}
