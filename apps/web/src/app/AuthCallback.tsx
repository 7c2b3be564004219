import { useEffect } from "react";
import { navigate, takeReturn } from "../services/address-bar.ts";

/**
 * Back from the identity provider: the session cookie is set; go on to the address the user
 * left from (the canvas by default), in place of this one.
 */
export function AuthCallback() {
  useEffect(() => navigate(takeReturn(), true), []);
  return <p className="centered">Signing you in…</p>;
}
