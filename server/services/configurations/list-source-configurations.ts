import { z } from "zod";
import type { Executor } from "@/db/client";
import { listAccountSources } from "../sources/list-sources";
import { DEFAULT_REFERENCE_SOURCE, DEFAULT_SOURCE_IDENTIFIER } from "../sources/schemas";

export const sourceConfigurationView = z.object({
  id: z.string().describe("ReferenceSource"),
  name: z.string(),
  profiles: z.array(z.object({ id: z.string().describe("SourceIdentifier"), name: z.string() })),
});

export type SourceConfigurationView = z.infer<typeof sourceConfigurationView>;

/** Activated pairs grouped by ReferenceSource; `api` with `default` is always listed first. */
export async function listSourceConfigurations(
  db: Executor,
  accountId: string,
): Promise<{ items: SourceConfigurationView[] }> {
  const items: SourceConfigurationView[] = [
    { id: DEFAULT_REFERENCE_SOURCE, name: "API", profiles: [{ id: DEFAULT_SOURCE_IDENTIFIER, name: "Default" }] },
  ];
  for (const s of await listAccountSources(db, accountId)) {
    let group = items.find((g) => g.id === s.referenceSource);
    if (!group) {
      group = { id: s.referenceSource, name: s.referenceSource, profiles: [] };
      items.push(group);
    }
    group.profiles.push({ id: s.sourceIdentifier, name: s.name ?? s.sourceIdentifier });
  }
  return { items };
}
