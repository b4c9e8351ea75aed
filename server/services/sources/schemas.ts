import { z } from "zod";

export const DEFAULT_REFERENCE_SOURCE = "api";
export const DEFAULT_SOURCE_IDENTIFIER = "default";

const pairPart = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} must have 1 to 64 characters`)
    .max(64, `${name} must have 1 to 64 characters`);

export const activateSourceInput = z.object({
  accountId: z.string().optional().describe("Defaults to the caller's only account."),
  referenceSource: pairPart("referenceSource"),
  sourceIdentifier: pairPart("sourceIdentifier"),
  name: z.string().trim().max(100).optional(),
});

export const sourceView = z.object({
  id: z.uuid(),
  referenceSource: z.string(),
  sourceIdentifier: z.string(),
  name: z.string().nullable(),
});

export type SourceView = z.infer<typeof sourceView>;
