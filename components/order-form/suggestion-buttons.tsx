"use client";

import { Wand2 } from "lucide-react";
import { createContext, useContext } from "react";
import { fieldLabel } from "@/lib/order-form/order-paths";
import { suggestionTarget, suggestionsOf, type Suggestion } from "@/lib/order-form/suggestions";
import { Button } from "@/components/ui/button";

/** What a suggestion button does: the order form puts the value into its field. Without a provider, no buttons. */
export const ApplySuggestion = createContext<((path: string, suggestion: Suggestion) => void) | null>(null);

/** One button per suggestion of a validation message (any field, any rule): a click fixes the field. */
export function SuggestionButtons({ message }: { message: { code: string; field: string | null } }) {
  const apply = useContext(ApplySuggestion);
  const suggestions = suggestionsOf(message);
  if (!apply || suggestions.length === 0) return null;
  return (
    <ul aria-label="Suggested fixes" className="mt-1.5 flex flex-wrap gap-1.5">
      {suggestions.map((suggestion) => {
        const target = suggestionTarget(message, suggestion);
        if (!target) return null;
        return (
          <li key={`${target}:${suggestion.value}`}>
            <Button
              variant="secondary"
              size="sm"
              className="h-auto min-h-8 py-1 text-left whitespace-normal"
              aria-label={`Use ${suggestion.text} as ${fieldLabel(target).toLowerCase()}`}
              onClick={() => apply(target, suggestion)}
            >
              <Wand2 aria-hidden className="size-3.5 shrink-0" />
              Use {suggestion.text}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
