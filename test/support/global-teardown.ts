export default async function globalTeardown(): Promise<void> {
  const handle = (globalThis as { engramTestPostgres?: { stop: () => Promise<void> } })
    .engramTestPostgres;
  await handle?.stop();
}
