// The client example of README.md ("Connect an agent"), type-checked with the rest: keep them equal.
import { EngramClient } from '@engram/client';

export async function readmeExample(token: string): Promise<void> {
  const engram = new EngramClient({ baseUrl: 'http://localhost:3000', token, workspace: 'demo' });
  const alice = engram.user('alice');
  const { messageId } = await alice.recordMessage({
    sessionId: 's1',
    role: 'user',
    channel: 'telegram',
    text: 'Je préfère les réponses courtes.',
  });
  const { messages } = await alice.context({ format: 'messages', sessionId: 's1' });
  console.log(messageId, messages); // → the system block, then the live window as chat turns
  for await (const action of alice.pendingActions()) console.log(action.summary, action.status);
}
