import { defaultStorage } from "../net/env";
import { ApiClient } from "../net/http";
import { TokenStore } from "../net/tokens";

const storage = defaultStorage();
export const tokens = new TokenStore(storage);
export const api = new ApiClient();

export function absoluteUrl(path: string): string {
  return new URL(path, location.origin).toString();
}
