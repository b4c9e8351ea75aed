"use client";

import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { LABEL_FORMATS, type LabelFormatId } from "@/lib/label-formats";

/** The label format the warehouse prints: PDF A6, PDF A4 four to a sheet, or ZPL for a thermal printer. */
export function LabelFormatSelect({
  value,
  onChange,
  id,
}: {
  value: LabelFormatId;
  onChange: (format: LabelFormatId) => void;
  id?: string;
}) {
  // Sized by its wrapper: the trigger is a full-width field control, and classes are not merged (lib/cn.ts).
  return (
    <div className="w-full sm:w-72">
      <Select value={value} onValueChange={(v) => onChange(v as LabelFormatId)}>
        <SelectTrigger id={id} aria-label="Label format" />
        <SelectContent>
          {LABEL_FORMATS.map((f) => (
            <SelectItem key={f.id} value={f.id}>
              {f.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
