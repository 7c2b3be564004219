import { type KeyboardEvent, lazy, Suspense, useEffect, useRef, useState } from "react";

// Spend by day and model: loaded when asked for.
const UsageDialog = lazy(() =>
  import("../costs/UsageDialog.tsx").then((module) => ({ default: module.UsageDialog })),
);

// Where runs go: loaded when asked for.
const ProvidersDialog = lazy(() =>
  import("../costs/ProvidersDialog.tsx").then((module) => ({ default: module.ProvidersDialog })),
);

const itemsOf = (root: HTMLElement | null) => [
  ...(root?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? []),
];

interface Props {
  email: string;
  isAdmin: boolean;
  onApiTokens(): void;
  onSignOut(): void;
}

/**
 * The signed-in user's menu in the top bar: usage, providers, API tokens, sign out (UX.md
 * app shell).
 */
export function UserMenu({ email, isAdmin, onApiTokens, onSignOut }: Props) {
  const [open, setOpen] = useState(false);
  const [usage, setUsage] = useState(false);
  const [providers, setProviders] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  const items = () => itemsOf(root.current);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    itemsOf(root.current)[0]?.focus();
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  // Arrow keys move between the items, Escape closes and gives focus back, Tab leaves.
  const onKeyDown = (event: KeyboardEvent) => {
    if (!open) return;
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      all[(at + step + all.length) % all.length]?.focus();
    } else if (event.key === "Tab") {
      setOpen(false);
    }
  };

  const choose = (action: () => void) => () => {
    close(false);
    action();
  };

  return (
    <div className="user-menu" ref={root}>
      <button
        ref={trigger}
        type="button"
        aria-label={`Account: ${email}`}
        aria-haspopup="menu"
        aria-expanded={open}
        title={isAdmin ? `${email} (admin)` : email}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={onKeyDown}
      >
        <span className="user-email">{email}</span> ▾
      </button>
      {open ? (
        <div className="menu" role="menu" aria-label="Account" onKeyDown={onKeyDown}>
          <button type="button" role="menuitem" onClick={choose(onApiTokens)}>
            API tokens…
          </button>
          <button type="button" role="menuitem" onClick={choose(() => setUsage(true))}>
            Usage…
          </button>
          <button type="button" role="menuitem" onClick={choose(() => setProviders(true))}>
            Providers…
          </button>
          {isAdmin ? (
            <a role="menuitem" href="/admin">
              Admin
            </a>
          ) : null}
          <button type="button" role="menuitem" onClick={choose(onSignOut)}>
            Sign out
          </button>
        </div>
      ) : null}
      {usage ? (
        <Suspense fallback={null}>
          <UsageDialog onClose={() => setUsage(false)} />
        </Suspense>
      ) : null}
      {providers ? (
        <Suspense fallback={null}>
          <ProvidersDialog onClose={() => setProviders(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
