import { withoutInstructions } from '../injection/user-memories-only';
import type { IdentityCardInput } from '../ports';
import { dataSection } from './data-section';
import { IDENTITY_CARD_PROMPT_EN } from './identity-card.en';
import { IDENTITY_CARD_PROMPT_FR } from './identity-card.fr';
import type { PromptMessages } from './prompt-messages';

export function identityCardPrompt(input: IdentityCardInput): PromptMessages {
  const intro = input.locale === 'fr' ? 'Mémoires de l’utilisateur :' : "The user's memories:";
  return {
    system: input.locale === 'fr' ? IDENTITY_CARD_PROMPT_FR : IDENTITY_CARD_PROMPT_EN,
    user: `${intro}\n${dataSection({
      memories: withoutInstructions(input.memories).map((memory) => ({
        kind: memory.kind,
        content: memory.content,
        due_at: memory.dueAt ?? null,
      })),
    })}`,
  };
}
