// The account's data: saved as a JSON file; and deleting the account.
import { useState } from "preact/hooks";
import type { AccountText } from "../../i18n/account";
import { navigate } from "../router";
import { api, Failure, signedIn, useStep } from "./shared";

export /** Saves the account's data as a JSON file, as the replay file is saved (ReplayPanel.tsx). */
async function download(username: string): Promise<void> {
  const data = await api.exportData();
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  a.download = `evr-account-${username}.json`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1e4);
}

/** Deleting: the username typed again; a wrong one is refused here, before any request. */
export function DeleteAccount({ text, username }: { text: AccountText; username: string }) {
  const [typed, setTyped] = useState("");
  const step = useStep(text);
  const remove = (e: Event) => {
    e.preventDefault();
    if (typed.trim() !== username) {
      step.setError(text.errors.confirmation_mismatch);
      return;
    }
    void step.run(async () => {
      await api.deleteAccount(typed.trim());
      signedIn(null);
      navigate("/");
    });
  };
  return (
    <form class="panel delete-account" onSubmit={remove} aria-labelledby="delete-h">
      <h2 id="delete-h">{text.deleteTitle}</h2>
      <p class="small">{text.deleteExplain}</p>
      <p>
        <label for="account-delete">{text.deleteType}</label>
        <input
          id="account-delete"
          value={typed}
          autoComplete="off"
          autoCapitalize="off"
          spellcheck={false}
          onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)}
        />
      </p>
      <button type="submit" class="sign-out" disabled={step.busy}>
        {text.deleteButton}
      </button>
      <Failure error={step.error} />
    </form>
  );
}
