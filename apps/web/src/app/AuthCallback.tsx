import { useEffect } from "react";
import { navigate } from "../services/address-bar.ts";

/** Back from the identity provider: the session cookie is set; go on to the canvas. */
export function AuthCallback() {
  useEffect(() => navigate("/", true), []);
  return <p className="centered">Signing you in…</p>;
}
