export type PromptMessages = Readonly<{ system: string; user: string }>;
