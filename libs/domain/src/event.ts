/** Metadata carried by every event. Routing fields stay in clear even when payloads are encrypted. */
export type EventMetadata = Readonly<{
  workspaceId: string;
  userId: string;
  traceId?: string;
  channel?: string;
  /** Id of the event or command that caused this one. */
  causationId: string;
  /** Id shared by everything that follows from one external request. */
  correlationId: string;
  /** ISO-8601 UTC instant at which the fact happened (given by the caller or the injected clock). */
  occurredAt: string;
}>;

export type Event<Type extends string = string, Data extends object = object> = Readonly<{
  type: Type;
  data: Readonly<Data>;
}>;

/** An event with its identity and metadata, as a decider's output is appended. */
export type EventEnvelope<E extends Event = Event> = Readonly<{
  eventId: string;
  event: E;
  metadata: EventMetadata;
}>;
