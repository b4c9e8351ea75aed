import { Notice } from "@/components/ui/notice";

export function ReadOnlyNotice({ what }: { what: string }) {
  return (
    <Notice className="mb-4">
      You are a member of this account: you can see its {what}, and only an owner can change them.
    </Notice>
  );
}
