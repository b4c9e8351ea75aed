"use client";

import { Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { describedBy, Field, TextField } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { cn } from "@/lib/cn";
import { parseSettings } from "@/lib/parse-profile-settings";
import {
  initialValues,
  optionLabel,
  savedSecret,
  settingsFields,
  toSettings,
  type MapRow,
  type MapSpec,
  type SettingSpec,
  type SettingsErrors,
  type SettingsValues,
} from "@/lib/profile-settings-form";

type Json = Record<string, unknown>;

/** What a dialog needs of a courier (from `courierProfiles.couriers`) to build its settings form. */
export type CourierSettingsInfo = { name: string; settingsSchema: Json; secretFields: string[] };

/**
 * The settings part of a profile dialog: the typed fields of the courier's schema, or a JSON textarea when the
 * schema has a shape the form cannot render. `saved` is the profile's settings as the view shows them (an edit).
 */
export type SettingsState = {
  fields: SettingSpec[] | null;
  values: SettingsValues;
  json: string;
  errors: SettingsErrors;
};

export function settingsState(courier: CourierSettingsInfo | undefined, saved?: Json): SettingsState {
  // A courier no longer offered: its settings as JSON, so nothing saved is lost by a save.
  const fields = courier ? settingsFields(courier.settingsSchema, courier.secretFields) : null;
  return {
    fields,
    values: fields ? initialValues(fields, saved) : {},
    json: saved && Object.keys(saved).length ? JSON.stringify(saved, null, 2) : "",
    errors: {},
  };
}

/** The settings to send, or the state with the messages to show (nothing is sent then). */
export function collectSettings(
  state: SettingsState,
  options: { keepSecrets: boolean },
): { settings: Json } | { errors: SettingsErrors } {
  if (!state.fields) {
    const parsed = parseSettings(state.json);
    return "error" in parsed ? { errors: { settings: parsed.error } } : parsed;
  }
  return toSettings(state.fields, state.values, options);
}

const SELECT_UNSET = "__unset__";

/** The first input with a message, to move focus to after a refused submit. */
export function focusFirstInvalid(form: HTMLFormElement | null) {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}

export function SettingsFields({
  idPrefix,
  courier,
  state,
  onChange,
  serverError,
  saved,
  serverErrorFields,
}: {
  idPrefix: string;
  courier: CourierSettingsInfo | undefined;
  state: SettingsState;
  onChange: (next: SettingsState) => void;
  /** The server's message for a field path (`settings.sender`), in the words of the screen. */
  serverError: (field: string) => string | undefined;
  /** Every field path the server named, to show those that match no input under the settings. */
  serverErrorFields: string[];
  saved?: Json;
}) {
  const { fields } = state;
  const setValue = (name: string, value: string | MapRow[]) => {
    // A changed input's own messages go: the user is fixing them.
    const errors = Object.fromEntries(
      Object.entries(state.errors).filter(([k]) => k !== name && !k.startsWith(`${name}[`)),
    );
    onChange({ ...state, values: { ...state.values, [name]: value }, errors });
  };

  if (!fields) {
    const id = `${idPrefix}-settings`;
    const message = state.errors.settings ?? serverError("settings");
    return (
      <Field
        id={id}
        label="Settings (JSON)"
        hint={`${courier?.name ?? "This courier"}'s settings as a JSON object. Empty means none.`}
        error={message}
      >
        <Textarea
          id={id}
          name="settings"
          rows={5}
          spellCheck={false}
          className="font-mono"
          placeholder="{ }"
          value={state.json}
          onChange={(e) => onChange({ ...state, json: e.target.value, errors: {} })}
          aria-invalid={message ? true : undefined}
          aria-describedby={describedBy(id, { hint: true, error: message })}
        />
      </Field>
    );
  }

  if (fields.length === 0) return null;
  const names = fields.map((f) => `settings.${f.name}`);
  // Messages the server gave for settings no input shows (an unknown key, the settings object as a whole).
  const unplaced = serverErrorFields.filter(
    (f) => (f === "settings" || f.startsWith("settings.")) && !names.some((n) => f === n || f.startsWith(`${n}.`)),
  );
  const unplacedMessage = unplaced.length ? serverError(unplaced[0]!) : undefined;

  return (
    <fieldset className="border-t border-slate-200 pt-4">
      {/* Floated, so the legend sits inside the box like a heading rather than on its border. */}
      <legend className="float-left mb-3 w-full text-sm font-semibold text-slate-900">
        {courier?.name ?? "Courier"} settings
      </legend>
      <div className="clear-both space-y-4">
        {fields.map((field) => {
          const id = `${idPrefix}-setting-${field.name}`;
          const error = state.errors[field.name] ?? serverError(`settings.${field.name}`);
          const label = field.required ? field.label : `${field.label} (optional)`;
          const value = state.values[field.name];
          const text = typeof value === "string" ? value : "";
          if (field.kind === "map")
            return (
              <MapField
                key={field.name}
                id={id}
                field={field}
                rows={Array.isArray(value) ? value : []}
                errors={state.errors}
                error={error}
                onRows={(rows) => setValue(field.name, rows)}
              />
            );
          if (field.kind === "enum")
            return (
              <Field key={field.name} id={id} label={label} hint={field.hint} error={error}>
                <Select
                  value={text || SELECT_UNSET}
                  onValueChange={(v) => setValue(field.name, v === SELECT_UNSET ? "" : v)}
                >
                  <SelectTrigger
                    id={id}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={describedBy(id, { hint: field.hint, error })}
                  />
                  <SelectContent>
                    {field.required ? null : (
                      <SelectItem value={SELECT_UNSET}>Not set (the courier&apos;s default)</SelectItem>
                    )}
                    {field.options.map((o) => (
                      <SelectItem key={o} value={o}>
                        {optionLabel(o)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </Field>
            );
          if (field.kind === "number")
            return (
              <TextField
                key={field.name}
                id={id}
                label={label}
                hint={field.hint}
                error={error}
                type="number"
                inputMode={field.integer ? "numeric" : "decimal"}
                step={field.integer ? 1 : "any"}
                min={field.min}
                max={field.max}
                autoComplete="off"
                value={text}
                onChange={(e) => setValue(field.name, e.target.value)}
              />
            );
          const masked = field.secret && saved ? savedSecret(saved, field.name) : undefined;
          const hint = masked ? (
            <>
              Saved: <span className="font-mono">{masked}</span> — leave empty to keep it.
              {field.hint ? ` ${field.hint}` : null}
            </>
          ) : (
            field.hint
          );
          return (
            <TextField
              key={field.name}
              id={id}
              label={masked ? field.label : label}
              hint={hint}
              error={error}
              type={field.secret ? "password" : "text"}
              autoComplete={field.secret ? "new-password" : "off"}
              spellCheck={false}
              placeholder={masked ? `Saved: ${masked}` : undefined}
              maxLength={field.secret ? undefined : field.maxLength}
              value={text}
              onChange={(e) => setValue(field.name, e.target.value)}
            />
          );
        })}
        {unplacedMessage ? (
          <p id={`${idPrefix}-settings-error`} className="text-sm text-red-700">
            {unplacedMessage}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}

/** An object of key → number (Packeta's country → carrier id) as rows of two inputs, added and removed by buttons. */
function MapField({
  id,
  field,
  rows,
  errors,
  error,
  onRows,
}: {
  id: string;
  field: MapSpec;
  rows: MapRow[];
  errors: SettingsErrors;
  error: string | undefined;
  onRows: (rows: MapRow[]) => void;
}) {
  const nextId = rows.reduce((max, r) => Math.max(max, r.id), -1) + 1;
  const countries = field.keyLabel === "Country";
  // Client messages are by position among the non-empty rows, as `toSettings` counts them.
  const filled = rows.filter((r) => r.key.trim() || r.value.trim());
  const rowError = (row: MapRow, part: "key" | "value") => {
    const i = filled.indexOf(row);
    return i < 0 ? undefined : errors[`${field.name}[${i}].${part}`];
  };
  const change = (row: MapRow, patch: Partial<MapRow>) => onRows(rows.map((r) => (r === row ? { ...r, ...patch } : r)));
  const hintId = field.hint ? `${id}-hint` : undefined;
  return (
    <fieldset aria-describedby={describedBy(id, { hint: field.hint, error })} className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">
        {field.required ? field.label : `${field.label} (optional)`}
      </legend>
      {field.hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {field.hint}
        </p>
      ) : null}
      {rows.length === 0 ? <p className="text-sm text-slate-500">None yet.</p> : null}
      <ul className="space-y-2">
        {rows.map((row, i) => {
          const keyId = `${id}-${row.id}-key`;
          const valueId = `${id}-${row.id}-value`;
          const keyError = rowError(row, "key");
          const valueError = rowError(row, "value");
          return (
            <li key={row.id} className="grid grid-cols-[5.5rem_minmax(0,1fr)_auto] items-start gap-2">
              <div className="space-y-1">
                <Label htmlFor={keyId} className="text-xs">
                  {field.keyLabel}
                  <span className="sr-only"> (row {i + 1})</span>
                </Label>
                <Input
                  id={keyId}
                  value={row.key}
                  maxLength={countries ? 2 : undefined}
                  placeholder={countries ? "CZ" : undefined}
                  autoComplete="off"
                  spellCheck={false}
                  className={cn(countries && "uppercase")}
                  aria-invalid={keyError ? true : undefined}
                  aria-describedby={keyError ? `${keyId}-error` : undefined}
                  onChange={(e) => change(row, { key: countries ? e.target.value.toUpperCase() : e.target.value })}
                />
                {keyError ? (
                  <p id={`${keyId}-error`} className="text-xs text-red-700">
                    {keyError}
                  </p>
                ) : null}
              </div>
              <div className="space-y-1">
                <Label htmlFor={valueId} className="text-xs">
                  {field.valueLabel}
                  <span className="sr-only"> (row {i + 1})</span>
                </Label>
                <Input
                  id={valueId}
                  type="number"
                  inputMode="numeric"
                  step={field.value.integer ? 1 : "any"}
                  min={field.value.min ?? (field.value.exclusiveMin === 0 ? 1 : undefined)}
                  max={field.value.max}
                  autoComplete="off"
                  value={row.value}
                  aria-invalid={valueError ? true : undefined}
                  aria-describedby={valueError ? `${valueId}-error` : undefined}
                  onChange={(e) => change(row, { value: e.target.value })}
                />
                {valueError ? (
                  <p id={`${valueId}-error`} className="text-xs text-red-700">
                    {valueError}
                  </p>
                ) : null}
              </div>
              <Button
                variant="danger-ghost"
                size="icon"
                className="mt-5"
                aria-label={`Remove row ${i + 1}${row.key ? ` (${row.key})` : ""}`}
                onClick={() => onRows(rows.filter((r) => r !== row))}
              >
                <Trash2 aria-hidden className="size-4" />
              </Button>
            </li>
          );
        })}
      </ul>
      <Button variant="secondary" size="sm" onClick={() => onRows([...rows, { id: nextId, key: "", value: "" }])}>
        <Plus aria-hidden className="size-4" />
        {countries ? "Add a country" : "Add a row"}
      </Button>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
