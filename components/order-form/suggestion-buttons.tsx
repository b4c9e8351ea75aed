"use client";

import { Wand2 } from "lucide-react";
import { createContext, useContext } from "react";
import { fieldLabel } from "@/lib/order-form/order-paths";
import { suggestionTarget, suggestionsOf, type Suggestion } from "@/lib/order-form/suggestions";
import { cn } from "@/lib/cn";
import { focusRing } from "@/lib/focus-ring";

/**
 * A suggestion's button (or link): the look of a small secondary button, but its text wraps, since a suggestion
 * reads like an address and must fit a phone's width.
 */
export const suggestionClass = cn(
  "inline-flex max-w-full items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 py-1 text-left text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50",
  focusRing,
);

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
            <button
              type="button"
              className={suggestionClass}
              aria-label={`Use ${suggestion.text} as ${fieldLabel(target).toLowerCase()}`}
              onClick={() => apply(target, suggestion)}
            >
              <Wand2 aria-hidden className="size-3.5 shrink-0" />
              Use {suggestion.text}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
