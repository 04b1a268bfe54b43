/**
 * Logical stream names (`{workspaceId}/{userId}/{kind}/{id}`) mapped to EventStoreDB stream names.
 *
 * The standard `$by_category` projection takes everything before the FIRST `-` as the category.
 * Putting the owner before that dash gives every user (and every workspace) a category stream of
 * its own, so one user's events can be read from `$ce-…` without scanning `$all`:
 *
 *   `{ws}/{user}/{kind}/{id}` → `u/{esc(ws)}/{esc(user)}-{kind}/{id}`, category `u/{ws}/{user}`
 *   `{ws}/~/{kind}/{id}`      → `w/{esc(ws)}-{kind}/{id}`, category `w/{ws}`
 *   anything else             → `x-{name}`, category `x`
 *
 * `esc` turns `-` (an identifier character) into `~` (not one), so the owner part never holds a
 * dash and the first dash is always the one put there (categories hold the escaped ids).
 */

import { parseStreamName } from '@engram/domain';

const WORKSPACE_SLOT = '~';
const USER_PREFIX = 'u/';
const WORKSPACE_PREFIX = 'w/';
const OTHER_PREFIX = 'x-';

function escapeOwner(identifier: string): string {
  return identifier.replaceAll('-', '~');
}

function unescapeOwner(escaped: string): string {
  return escaped.replaceAll('~', '-');
}

/** Category (as `$by_category` sees it) of every stream owned by one user. */
export function userCategory(workspaceId: string, userId: string): string {
  return `${USER_PREFIX}${escapeOwner(workspaceId)}/${escapeOwner(userId)}`;
}

/** Category of every workspace-level stream of one workspace. */
export function workspaceCategory(workspaceId: string): string {
  return `${WORKSPACE_PREFIX}${escapeOwner(workspaceId)}`;
}

/** The `$by_category` stream holding links to every event of one user. */
export function userCategoryStream(workspaceId: string, userId: string): string {
  return `$ce-${userCategory(workspaceId, userId)}`;
}

export function toPhysicalStreamName(logical: string): string {
  const stream = parseStreamName(logical);
  if (!stream) return `${OTHER_PREFIX}${logical}`;
  const { workspaceId, userId, kind, id } = stream;
  return userId === null
    ? `${workspaceCategory(workspaceId)}-${kind}/${id}`
    : `${userCategory(workspaceId, userId)}-${kind}/${id}`;
}

/**
 * Exact inverse of {@link toPhysicalStreamName}; `undefined` for a name it never produces
 * (system streams, streams written by other tools), which callers treat as not part of this store.
 */
export function toLogicalStreamName(physical: string): string | undefined {
  const logical = decode(physical);
  // Re-encoding rejects every name outside the image (`x-a/b/c/d` would be `u/a/b-c/d`).
  return logical !== undefined && toPhysicalStreamName(logical) === physical ? logical : undefined;
}

function decode(physical: string): string | undefined {
  if (physical.startsWith(OTHER_PREFIX)) return physical.slice(OTHER_PREFIX.length);
  const isUser = physical.startsWith(USER_PREFIX);
  if (!isUser && !physical.startsWith(WORKSPACE_PREFIX)) return undefined;
  const rest = physical.slice(USER_PREFIX.length);
  const dash = rest.indexOf('-');
  if (dash < 0) return undefined;
  const owner = rest.slice(0, dash);
  const tail = rest.slice(dash + 1);
  if (!isUser) return `${unescapeOwner(owner)}/${WORKSPACE_SLOT}/${tail}`;
  const ownerParts = owner.split('/');
  if (ownerParts.length !== 2) return undefined;
  const [workspace, user] = ownerParts as [string, string];
  return `${unescapeOwner(workspace)}/${unescapeOwner(user)}/${tail}`;
}

/**
 * Physical prefixes that every physical name of a logical name starting with `logicalPrefix` starts
 * with (a superset: the caller still matches the logical prefix exactly), so that the server can
 * filter by stream name. Escaping is character by character, so a prefix of an owner escapes to a
 * prefix of the escaped owner.
 */
export function toPhysicalStreamPrefixes(logicalPrefix: string): string[] {
  const other = `${OTHER_PREFIX}${logicalPrefix}`;
  const [workspace = '', user, ...rest] = logicalPrefix.split('/');
  const ws = escapeOwner(workspace);
  if (user === undefined) return [`${USER_PREFIX}${ws}`, `${WORKSPACE_PREFIX}${ws}`, other];
  if (rest.length === 0) {
    if (user === '') return [`${USER_PREFIX}${ws}/`, `${WORKSPACE_PREFIX}${ws}-`, other];
    if (user === WORKSPACE_SLOT) return [`${WORKSPACE_PREFIX}${ws}-`, other];
    return [`${USER_PREFIX}${ws}/${escapeOwner(user)}`, other];
  }
  const tail = rest.join('/');
  return user === WORKSPACE_SLOT
    ? [`${WORKSPACE_PREFIX}${ws}-${tail}`, other]
    : [`${USER_PREFIX}${ws}/${escapeOwner(user)}-${tail}`, other];
}
