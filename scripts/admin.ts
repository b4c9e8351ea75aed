import { parseArgs } from "node:util";
import { closeDb, getDb } from "@/db/client";
import { migrate } from "@/server/migrate";
import { AppError } from "@/server/errors";
import { keyring } from "@/server/secrets/keyring";
import { resealStoredSecrets } from "@/server/secrets/reseal-stored-secrets";
import { createUser } from "@/server/services/accounts/create-user";
import { setMembershipRole } from "@/server/services/accounts/set-membership-role";
import { setUserPassword } from "@/server/services/accounts/set-user-password";
import { setUserStaff } from "@/server/services/accounts/set-user-staff";

const usage = `Usage:
  npm run admin -- user:create --email E --password P (--account NAME | --account-id ID) [--staff] [--role owner|member]
  npm run admin -- user:create --email E --account-id ID [--role owner|member]
                                       add an existing user to an account (nothing else of theirs changes)
  npm run admin -- user:password --email E --password P
                                       set a user's password; ends every dashboard session and access token of theirs
  npm run admin -- user:role --email E --account-id ID --role owner|member
                                       change a member's role in an account
  npm run admin -- user:staff --email E (--grant | --revoke)
                                       grant or revoke a user's staff rights
  npm run admin -- secrets:rotate      re-encrypt every stored secret under SECRETS_KEY, bound to its row (set the old key as
                                       SECRETS_KEY_PREVIOUS while it runs; remove it afterwards)`;

/** The option of each field a service names in an error. */
const OPTION_OF_FIELD: Record<string, string> = {
  email: "--email",
  password: "--password",
  account: "--account",
  accountName: "--account",
  accountId: "--account-id",
  role: "--role",
  staff: "--staff",
  name: "--name",
};

/** What changes an existing user's field that `user:create` refuses to change. */
const COMMAND_THAT_CHANGES: Record<string, string> = {
  password: "user:password --email E --password P",
  staff: "user:staff --email E (--grant | --revoke)",
  role: "user:role --email E --account-id ID --role owner|member",
};

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "secrets:rotate") {
    const count = await resealStoredSecrets(await getDb());
    console.log(
      `secrets:rotate: every secret is sealed under key ${keyring().current.id} (re-encrypted now: ` +
        `${count.webhookEndpoints} webhook endpoints, ${count.courierProfiles} courier profiles)`,
    );
    return 0;
  }
  if (command === "user:password") {
    const { values } = parseArgs({
      args: rest,
      options: { email: { type: "string" }, password: { type: "string" } },
      strict: true,
    });
    await migrate();
    const result = await setUserPassword(await getDb(), { email: values.email ?? "", password: values.password ?? "" });
    console.log(JSON.stringify({ ...result, sessionsEnded: true }));
    return 0;
  }
  if (command === "user:role") {
    const { values } = parseArgs({
      args: rest,
      options: { email: { type: "string" }, "account-id": { type: "string" }, role: { type: "string" } },
      strict: true,
    });
    await migrate();
    const result = await setMembershipRole(await getDb(), {
      email: values.email ?? "",
      accountId: values["account-id"] ?? "",
      role: values.role as "owner" | "member",
    });
    console.log(JSON.stringify({ ...result, changed: result.role !== result.previousRole }));
    return 0;
  }
  if (command === "user:staff") {
    const { values } = parseArgs({
      args: rest,
      options: { email: { type: "string" }, grant: { type: "boolean" }, revoke: { type: "boolean" } },
      strict: true,
    });
    if (Boolean(values.grant) === Boolean(values.revoke)) {
      console.error("error: give exactly one of --grant or --revoke");
      console.error(usage);
      return 1;
    }
    await migrate();
    console.log(
      JSON.stringify(await setUserStaff(await getDb(), { email: values.email ?? "", staff: !!values.grant })),
    );
    return 0;
  }
  if (command !== "user:create") {
    console.error(usage);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      account: { type: "string" },
      "account-id": { type: "string" },
      staff: { type: "boolean" },
      role: { type: "string" },
      name: { type: "string" },
    },
    strict: true,
  });
  await migrate();
  const result = await createUser(
    await getDb(),
    {
      email: values.email ?? "",
      password: values.password,
      accountName: values.account,
      accountId: values["account-id"],
      staff: values.staff,
      role: values.role as "owner" | "member" | undefined,
      name: values.name,
    },
    { audit: "admin-cli" },
  );
  console.log(JSON.stringify(result));
  return 0;
}

main()
  .catch((error: unknown) => {
    if (error instanceof AppError) {
      console.error(`error: ${error.message}`);
      for (const e of error.errors ?? []) {
        console.error(`  ${OPTION_OF_FIELD[e.field] ?? e.field}: ${e.message}`);
        const command = error.code === "conflict" ? COMMAND_THAT_CHANGES[e.field] : undefined;
        if (command) console.error(`  change it with: npm run admin -- ${command}`);
      }
    } else {
      console.error(error);
    }
    console.error(usage);
    return 1;
  })
  .then(async (code) => {
    await closeDb();
    process.exit(code);
  });
