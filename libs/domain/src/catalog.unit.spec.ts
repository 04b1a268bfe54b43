import { EVENT_CATALOG } from './catalog';

/** Personal data that must be encrypted at rest (and shredded on erasure), by event type. */
const KNOWN_PERSONAL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  MessageRecorded: ['text'],
  MemoryCandidateDetected: ['content', 'sourceExcerpt'],
  ActionProposed: ['target', 'summary', 'input'],
  ActionExecuted: ['result'],
  RollingSummaryExtended: ['summary'],
  IdentityCardRegenerated: ['markdown'],
};

describe('EVENT_CATALOG', () => {
  it('declares each event type once', () => {
    const types = EVENT_CATALOG.map((definition) => definition.type);
    expect(types.filter((type, index) => types.indexOf(type) !== index)).toEqual([]);
  });

  it.each(EVENT_CATALOG.map((definition) => [definition.type, definition] as const))(
    '%s declares its personal fields (an empty list is a deliberate choice)',
    (_type, definition) => {
      expect(Array.isArray(definition.personalFields)).toBe(true);
      for (const field of definition.personalFields) {
        expect(typeof field).toBe('string');
        expect(field.trim()).not.toBe('');
        // The cipher's envelope field and the prototype are never data fields.
        expect(['_sealed', '__proto__']).not.toContain(field);
      }
      expect(new Set(definition.personalFields).size).toBe(definition.personalFields.length);
      expect(Number.isInteger(definition.version) && definition.version >= 1).toBe(true);
    },
  );

  it.each(Object.entries(KNOWN_PERSONAL_FIELDS))('%s declares %j as personal', (type, fields) => {
    const definition = EVENT_CATALOG.find((candidate) => candidate.type === type);
    expect(definition).toBeDefined();
    expect(definition?.personalFields).toEqual(expect.arrayContaining([...fields]));
  });
});
