import { PackagePlus } from "lucide-react";
import Link from "next/link";
import { withAccount } from "@/lib/account";
import { Button } from "@/components/ui/button";

export function NewOrderButton({ accountId }: { accountId: string }) {
  return (
    <Button asChild>
      <Link href={withAccount("/dashboard/orders/new", accountId)}>
        <PackagePlus aria-hidden className="size-4" />
        New order
      </Link>
    </Button>
  );
}
