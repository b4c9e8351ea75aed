"use client";

import { Field } from "@/components/ui/field";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";

/** The select value meaning "no filter": Radix Select items cannot have an empty value. */
export const ANY = "__any__";

/** The "Courier" filter of the list pages: every integrated courier, or any. */
export function CourierFilterSelect({
  id,
  couriers,
  value,
  onChange,
}: {
  id: string;
  couriers: readonly { id: string; name: string }[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field id={id} label="Courier">
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id} />
        <SelectContent>
          <SelectItem value={ANY}>Any courier</SelectItem>
          {couriers.map((c) => (
            <SelectItem key={c.id} value={c.id}>
              {c.name}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </Field>
  );
}
