/**
 * Refusals a command raises, in the words users see (the SPEC's texts). Commands know
 * nothing of HTTP: `http/errors.ts` maps each kind to its status code, in one place.
 */
export abstract class DomainError extends Error {}

/** The request's content is not acceptable (400). */
export class InvalidInputError extends DomainError {}

/** No signed-in user where one is needed (401). */
export class UnauthenticatedError extends DomainError {}

/** The user may not do this (403). */
export class ForbiddenError extends DomainError {}

/** No such resource for this user; another user's answers the same (404). */
export class NotFoundError extends DomainError {}

/** The resource changed or clashes with another (409); `details` go into the answer. */
export class ConflictError extends DomainError {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Over a size limit (413). */
export class TooLargeError extends DomainError {}

/** Over a rate or count limit (429): `limit` says which, retry after the given seconds. */
export class RateLimitedError extends DomainError {
  constructor(
    readonly limit: string,
    readonly retryAfterSeconds: number,
  ) {
    super(limit);
  }
}

/** The operation failed for a reason the user cannot fix; the message says which (500). */
export class OperationFailedError extends DomainError {}
