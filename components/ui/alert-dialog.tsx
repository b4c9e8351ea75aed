"use client";

import { AlertDialog as AlertDialogPrimitive } from "radix-ui";
import { Button } from "./button";
import { overlayClass } from "./dialog";
import { Spinner } from "./spinner";

export const AlertDialog = AlertDialogPrimitive.Root;
export const AlertDialogTrigger = AlertDialogPrimitive.Trigger;

type ConfirmProps = {
  title: React.ReactNode;
  description: React.ReactNode;
  confirmLabel: string;
  /** The button that closes the dialog doing nothing; rename it when the confirmation itself says "Cancel …". */
  dismissLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
  /** Where focus goes once the dialog closes, when the trigger it would return to is gone (the row was removed). */
  focusAfterClose?: () => HTMLElement | null;
};

/**
 * The body of a destructive confirmation. The action does not close the dialog by itself: the caller
 * closes it when the mutation succeeds, so a failure leaves the question on screen.
 */
export function ConfirmContent({
  title,
  description,
  confirmLabel,
  dismissLabel = "Cancel",
  pending = false,
  onConfirm,
  focusAfterClose,
}: ConfirmProps) {
  return (
    <AlertDialogPrimitive.Portal>
      <AlertDialogPrimitive.Overlay className={overlayClass} />
      <AlertDialogPrimitive.Content
        onCloseAutoFocus={(event) => {
          const target = focusAfterClose?.();
          if (!target) return;
          event.preventDefault();
          target.focus();
        }}
        className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none"
      >
        <AlertDialogPrimitive.Title className="text-lg font-semibold text-slate-900">
          {title}
        </AlertDialogPrimitive.Title>
        <AlertDialogPrimitive.Description className="mt-2 text-sm text-slate-600">
          {description}
        </AlertDialogPrimitive.Description>
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <AlertDialogPrimitive.Cancel asChild>
            <Button variant="secondary">{dismissLabel}</Button>
          </AlertDialogPrimitive.Cancel>
          <Button
            variant="danger"
            disabled={pending}
            onClick={(event) => {
              event.preventDefault();
              onConfirm();
            }}
          >
            {pending ? <Spinner /> : null}
            {confirmLabel}
          </Button>
        </div>
      </AlertDialogPrimitive.Content>
    </AlertDialogPrimitive.Portal>
  );
}
