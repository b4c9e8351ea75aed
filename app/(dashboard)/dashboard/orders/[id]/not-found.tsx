import { SearchX } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

/** A missing order answers 404. The account is not known here, so the link goes to the orders of the default one. */
export default function OrderNotFound() {
  return (
    <EmptyState
      icon={SearchX}
      title="Order not found"
      action={
        <Button asChild variant="secondary">
          <Link href="/dashboard/orders">Back to orders</Link>
        </Button>
      }
    >
      This order does not exist in this account, or it was deleted or replaced by a newer order with the same reference
      number.
    </EmptyState>
  );
}
