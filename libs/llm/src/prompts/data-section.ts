/**
 * Wraps untrusted text (messages, memories) as JSON between <data> and </data>. JSON escapes the
 * quotes and "<" is escaped too, so no message can close the section and speak as the system.
 */
export function dataSection(data: unknown): string {
  const json = JSON.stringify(data, null, 2).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return `<data>\n${json}\n</data>`;
}

export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}
