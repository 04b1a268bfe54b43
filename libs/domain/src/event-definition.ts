/**
 * Declaration of one event type in the catalog: its current schema version, how older stored
 * versions are upcast, and which data fields hold personal data (encrypted at rest, shredded on erasure).
 */
export type EventDefinition = Readonly<{
  type: string;
  version: number;
  /** Top-level data fields that hold personal data. An empty list must be a deliberate choice. */
  personalFields: readonly string[];
  /** upcasters[v] turns data stored at version v into version v + 1. */
  upcasters?: Readonly<Record<number, (data: Record<string, unknown>) => Record<string, unknown>>>;
}>;
