import type { ConversationLine } from '../ports';
import { MAX_SUMMARY_LENGTH, OfflineSummarizer, summarize } from './offline-summarizer';

const at = '2026-06-08T16:40:00Z';
const user = (text: string): ConversationLine => ({ role: 'user', text, occurredAt: at });
const assistant = (text: string): ConversationLine => ({ role: 'assistant', text, occurredAt: at });

describe('OfflineSummarizer', () => {
  it('appends one compact line per new message to the previous summary', () => {
    expect(
      summarize({
        previousSummary: '- Utilisateur : Bonjour.',
        messages: [
          user("Je prépare un voyage au Japon en octobre.   Tu as des idées d'itinéraire ?"),
          assistant('Voici un itinéraire de dix jours.'),
        ],
        locale: 'fr',
      }),
    ).toBe(
      [
        '- Utilisateur : Bonjour.',
        "- Utilisateur : Je prépare un voyage au Japon en octobre. Tu as des idées d'itinéraire ?",
        '- Assistant : Voici un itinéraire de dix jours.',
      ].join('\n'),
    );
  });

  it('writes English labels for an English summary and skips empty messages', () => {
    expect(
      summarize({
        previousSummary: '',
        messages: [user('  '), user('I moved to Oslo.')],
        locale: 'en',
      }),
    ).toBe('- User: I moved to Oslo.');
  });

  it('keeps the first sentences of a long message, cut at a sentence or a word', () => {
    const long = `${'Une phrase assez longue pour compter. '.repeat(10)}Fin.`;
    const line = summarize({ previousSummary: '', messages: [user(long)], locale: 'fr' });
    expect(line.length).toBeLessThanOrEqual(220);
    expect(line).toMatch(/^- Utilisateur : Une phrase assez longue pour compter\. .*compter\.$/);
    const wordy = summarize({
      previousSummary: '',
      messages: [assistant('mot '.repeat(100))],
      locale: 'fr',
    });
    expect(wordy.endsWith('…')).toBe(true);
  });

  it('stays under the bound by dropping the oldest lines', () => {
    let summary = '';
    for (let batch = 0; batch < 30; batch += 1) {
      summary = summarize({
        previousSummary: summary,
        messages: [user(`Message numéro ${batch} avec un peu de texte pour remplir la ligne.`)],
        locale: 'fr',
      });
      expect(summary.length).toBeLessThanOrEqual(MAX_SUMMARY_LENGTH);
    }
    expect(summary).toContain('Message numéro 29');
    expect(summary).not.toContain('Message numéro 0 ');
  });

  it('is deterministic and never fails', async () => {
    const input = { previousSummary: 'x', messages: [user('Bonjour')], locale: 'fr' as const };
    const first = await new OfflineSummarizer().summarize(input);
    const second = await new OfflineSummarizer().summarize(input);
    expect(first).toEqual(second);
    expect(first).toEqual({
      ok: true,
      value: 'x\n- Utilisateur : Bonjour',
      model: 'offline-rules',
      usage: { promptTokens: 0, completionTokens: 0 },
    });
  });
});
