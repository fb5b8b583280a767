// GENERATED CODE - DO NOT MODIFY. Produced by scripts/generate.ts from openapi.yaml (npm run generate).
/* eslint-disable */
export interface paths {
    "/v1/analyze": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Extract entities, relations and sentiment from text
         * @description Analyses 200 to 30,000 characters (Unicode code points) of English text.
         *
         *     - Entity lists hold deduplicated canonical names (one entry per entity, not per mention),
         *       most salient first, at most `options.maxEntitiesPerType` each (default 50, 1..100).
         *     - Relations link names that appear in the entity lists; `type` is one of a closed set.
         *       When an entity is cut from its list by `maxEntitiesPerType`, its relations go too.
         *     - `evidence` is the shortest sentence-level excerpt of the input supporting the relation;
         *       it is omitted when `options.includeEvidence` is false.
         *     - `sentiment` is the sentiment expressed about the relation in its evidence, not the
         *       document's tone; `confidence` is a calibrated probability that the relation is correct.
         *     - Only English (`en`) is analysed. Other languages, detected or hinted, get 400
         *       `UNSUPPORTED_LANGUAGE` and are not counted.
         *     - With `options.include: [mentions]` the answer also has `entityDetails` (each entity's
         *       confidence, salience and mentions with their offsets) and each relation the offsets of its
         *       evidence and the indexes of its entities there; offsets are in `options.offsetEncoding`
         *       units (code points by default). Without it the answer is exactly the short form.
         *     - A successful call counts toward the daily quota, also when served from the cache.
         */
        post: operations["analyzeText"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/quota": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Report today's usage of the account's daily quota
         * @description Reports the plan, today's limit, used and remaining requests (shared by all the account's
         *     tokens) and the next reset (midnight UTC). This call is never counted, and it answers
         *     also when the quota is exhausted.
         */
        get: operations["getQuota"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description 200 while the process serves requests. Needs no token.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description 200 when the database answers and the analysis model is loaded; 503 otherwise. Needs no token.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Metrics in the Prometheus text format. Needs no token.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AnalyzeRequest: {
            /**
             * @description The text to analyse, 200 to 30,000 Unicode code points (an emoji or other astral character counts once).
             *     It must be well-formed Unicode (no lone UTF-16 surrogate such as `\ud800` written as a JSON escape) and
             *     contain at least one letter or digit; otherwise 400 `INVALID_TEXT`, not counted.
             */
            text: string;
            options?: components["schemas"]["AnalyzeOptions"];
        };
        AnalyzeOptions: {
            languageHint?: components["schemas"]["LanguageCode"];
            /**
             * @description Most entries per entity list, an integer from 1 to 100 (400 `INVALID_MAX_ENTITIES` otherwise).
             * @default 50
             */
            maxEntitiesPerType?: number;
            /**
             * @description Whether each relation carries `evidence`.
             * @default true
             */
            includeEvidence?: boolean;
            /**
             * @description Opt-in detail. `mentions` adds `entityDetails` (every entity's confidence, salience and
             *     mentions with offsets) and, on each relation, the offsets of its evidence and the indexes
             *     of its source and target in `entityDetails`. Without it the answer has exactly the shape
             *     it has always had. Counted and cached like any call: a cached analysis answers either form.
             */
            include?: "mentions"[];
            /**
             * @description The unit of every offset in the answer (`start`, `end`, `evidenceStart`, `evidenceEnd`),
             *     as Google Natural Language's `encodingType`: `codepoint` (Unicode code points; Python's
             *     `text[start:end]`), `utf16` (UTF-16 code units; JavaScript's `text.slice(start, end)`,
             *     Java, C#), `utf8` (bytes of the UTF-8 encoding; Go, Rust). Offsets are zero-based and
             *     `end` is exclusive. Ignored without `include: [mentions]`.
             * @default codepoint
             * @enum {string}
             */
            offsetEncoding?: "codepoint" | "utf16" | "utf8";
        };
        /**
         * @description The language of the text, as a lower-case ISO 639-1 code. Only `en` (English) is
         *     supported today. A string that is not an ISO 639-1 code gets 400 `INVALID_LANGUAGE_HINT`;
         *     any other valid code (`de`, `fr`, ...) gets 400 `UNSUPPORTED_LANGUAGE`. When given it
         *     overrides detection and is reported as `meta.language`.
         * @example en
         */
        LanguageCode: string;
        AnalyzeResult: {
            /** @description Deduplicated canonical names, most salient first, at most `maxEntitiesPerType` each. */
            entities: {
                /** @description People mentioned. */
                persons: string[];
                /** @description Companies, institutions, groups. */
                organizations: string[];
                /** @description Places, cities, countries, addresses. */
                locations: string[];
                /** @description Named products, works, artifacts, technologies, vehicles, laws and agreements (not dates, amounts or events). */
                objects: string[];
            };
            relations: components["schemas"]["Relation"][];
            /**
             * @description Only with `options.include: [mentions]`. One object per entry of the four entity lists, in
             *     their order: the persons, then the organizations, the locations and the objects, each list
             *     most salient first (so it is cut by `maxEntitiesPerType` exactly as the lists are).
             */
            entityDetails?: components["schemas"]["EntityDetail"][];
            meta: {
                /** @description Name and version of the analysis model. */
                model: string;
                /** @description The ISO 639-1 code analysed as (detected, or the `languageHint`). */
                language: string;
                /** @description Server time spent on this request, in milliseconds. */
                processingMs: number;
                /** @description True when the result came from the cache. */
                cached: boolean;
            };
        };
        Relation: {
            /** @description Source entity; a name from the entity lists. */
            source: string;
            /** @description Target entity; a name from the entity lists. */
            target: string;
            type: components["schemas"]["RelationType"];
            /** @description The shortest sentence-level excerpt of the input supporting the relation. Present unless `includeEvidence` is false. */
            evidence?: string;
            sentiment: components["schemas"]["Sentiment"];
            /** @description Calibrated probability that the relation is correct. */
            confidence: number;
            /** @description Only with `include: [mentions]`, also when `includeEvidence` is false. Where the evidence starts in the input, in `offsetEncoding` units. */
            evidenceStart?: number;
            /** @description Only with `include: [mentions]`, also when `includeEvidence` is false. Where the evidence ends in the input (exclusive), in `offsetEncoding` units. */
            evidenceEnd?: number;
            /** @description Only with `include: [mentions]`. The index of the source in `entityDetails`. */
            sourceIndex?: number;
            /** @description Only with `include: [mentions]`. The index of the target in `entityDetails`. */
            targetIndex?: number;
        };
        EntityDetail: {
            /** @description The canonical name, as in the entity list. */
            name: string;
            /**
             * @description Which list the entity is in.
             * @enum {string}
             */
            type: "person" | "organization" | "location" | "object";
            /** @description Calibrated probability that the entity (this name with this type) is right. Entities under their type's cut (at most 0.5) are not reported. */
            confidence: number;
            /**
             * @description How central the entity is to the text, 0..1: its share of the sum, over all the entities the
             *     engine reports for the text (before `maxEntitiesPerType` cuts the lists), of a score that
             *     is the entity's number of mentions, plus up to 0.5 for an early first mention (0.5 at the
             *     start of the text, 0 at its end), plus 0.1 for each word of its name, up to three. Rounded
             *     to four decimals, so the values of one text sum to 1 up to rounding. Each entity list
             *     is in this order, most salient first.
             */
            salience: number;
            /** @description Every place the text names the entity, by its name or a shorter form, in text order. Pronouns and descriptions ("he", "the company") are not reported. */
            mentions: components["schemas"]["Mention"][];
        };
        Mention: {
            /** @description The mention exactly as it is in the input; slicing the input at `start`..`end` gives it. */
            text: string;
            /** @description Zero-based offset of the first character, in `offsetEncoding` units. */
            start: number;
            /** @description Offset just past the last character (exclusive), in `offsetEncoding` units. */
            end: number;
            /**
             * @description `name` when the mention spells the entity's name (or a variant of it: other case, dots or spacing, a title before a person's name, "the" before an organization's); `alias` when it refers to it by a shorter form, such as a surname alone ("Cook" for "Tim Cook") or part of an organization's name ("Apple" for "Apple Inc."). The engine does not resolve descriptions such as "the company" to an entity.
             * @enum {string}
             */
            kind: "name" | "alias";
        };
        /**
         * @description The closed set of relation types, read as "source TYPE target":
         *     `works_for` (person → organization), `located_in` (organization or location → location),
         *     `lives_in` (person → location), `born_in` (person → location), `founded` (person or
         *     organization → organization), `owns` (person or organization → organization or object),
         *     `acquired` (organization → organization or object), `part_of` (organization →
         *     organization), `member_of` (person or organization → organization), `produces`
         *     (organization → object), `partner_of` and `competitor_of` (organization → organization),
         *     `family_of` (person → person), `killed` (person → person).
         * @enum {string}
         */
        RelationType: "works_for" | "located_in" | "lives_in" | "born_in" | "founded" | "owns" | "acquired" | "part_of" | "member_of" | "produces" | "partner_of" | "competitor_of" | "family_of" | "killed";
        /** @enum {string} */
        Sentiment: "positive" | "negative" | "neutral";
        /**
         * @description Subscription plan: free (100 requests a day, 3 tokens), starter (1,000; 5), pro (10,000; 10), business (50,000; 25).
         * @enum {string}
         */
        Plan: "free" | "starter" | "pro" | "business";
        Quota: {
            plan: components["schemas"]["Plan"];
            daily: {
                /** @description Requests allowed per UTC day. */
                limit: number;
                /** @description Requests counted today. */
                used: number;
                /** @description Requests remaining today. */
                remaining: number;
            };
            /**
             * Format: date-time
             * @description ISO 8601 time of the next reset (midnight UTC).
             */
            resetAt: string;
        };
        AnalyzeBadRequestError: {
            /** @description The HTTP status text. */
            error: string;
            /** @description What went wrong and what to do, for a person. */
            message: string;
            /**
             * @description Which rule of the input was broken (see the 400 response).
             * @enum {string}
             */
            code: "INVALID_JSON" | "UNSUPPORTED_MEDIA_TYPE" | "BODY_TOO_LARGE" | "INVALID_BODY" | "MISSING_FIELD" | "UNKNOWN_FIELD" | "INVALID_FIELD_TYPE" | "TEXT_TOO_SHORT" | "TEXT_TOO_LONG" | "INVALID_TEXT" | "INVALID_MAX_ENTITIES" | "INVALID_LANGUAGE_HINT" | "UNSUPPORTED_LANGUAGE" | "VALIDATION_ERROR" | "BAD_REQUEST";
        };
        UnauthorizedError: {
            /** @description The HTTP status text. */
            error: string;
            /** @description What went wrong and what to do, for a person. */
            message: string;
            /** @enum {string} */
            code: "INVALID_TOKEN";
        };
        RateLimitError: {
            /** @description The HTTP status text. */
            error: string;
            /** @description What went wrong and when to retry, for a person. */
            message: string;
            /**
             * @description `RATE_LIMITED`: the token's burst limit. `QUOTA_EXCEEDED`: the daily quota.
             * @enum {string}
             */
            code: "RATE_LIMITED" | "QUOTA_EXCEEDED";
            /** @description Seconds to wait; for `QUOTA_EXCEEDED`, the seconds until the quota resets. */
            retryAfter: number;
        };
        BurstLimitError: {
            /** @description The HTTP status text. */
            error: string;
            /** @description What went wrong and when to retry, for a person. */
            message: string;
            /** @enum {string} */
            code: "RATE_LIMITED";
            /** @description Seconds until the token's burst limit lets a request through again. */
            retryAfter: number;
        };
        InternalError: {
            /** @description The HTTP status text. */
            error: string;
            /** @description What went wrong, for a person; never internals. */
            message: string;
            /** @enum {string} */
            code: "INTERNAL_ERROR";
            /** @description The request's `X-Request-Id`; quote it when reporting the error. */
            requestId: string;
        };
        AnalyzeUnavailableError: {
            /** @description The HTTP status text. */
            error: string;
            /** @description What went wrong and when to retry, for a person. */
            message: string;
            /**
             * @description Why the request could not be served now (see the 503 response).
             * @enum {string}
             */
            code: "OVERLOADED" | "DATABASE_UNAVAILABLE" | "ANALYSIS_TIMEOUT" | "ANALYSIS_FAILED" | "SHUTTING_DOWN";
        };
        QuotaUnavailableError: {
            /** @description The HTTP status text. */
            error: string;
            /** @description What went wrong and when to retry, for a person. */
            message: string;
            /**
             * @description Why the request could not be served now (see the 503 response).
             * @enum {string}
             */
            code: "DATABASE_UNAVAILABLE" | "SHUTTING_DOWN";
        };
        NotFoundError: {
            /** @description The HTTP status text. */
            error: string;
            /** @description The method and path that matched nothing. */
            message: string;
            /** @enum {string} */
            code: "NOT_FOUND";
        };
        MethodNotAllowedError: {
            /** @description The HTTP status text. */
            error: string;
            /** @description The method refused and the methods the path allows. */
            message: string;
            /** @enum {string} */
            code: "METHOD_NOT_ALLOWED";
        };
        /**
         * @description The answer to a request Node's HTTP parser refuses, before any route runs (no operation
         *     declares it); the connection is closed after it.
         */
        ProtocolError: {
            /** @description The HTTP status text. */
            error: string;
            /** @description What is wrong with the request. */
            message: string;
            /** @enum {string} */
            code: "MALFORMED_REQUEST" | "REQUEST_TIMEOUT" | "HEADERS_TOO_LARGE";
        };
        Health: {
            /** @constant */
            status: "ok";
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "not_ready";
            checks: {
                /** @enum {string} */
                database: "ok" | "failing";
                /** @enum {string} */
                model: "ok" | "failing";
            };
        };
    };
    responses: {
        /**
         * @description Invalid input; never counted. `code` says which rule was broken:
         *     `INVALID_JSON` (malformed JSON or empty body), `UNSUPPORTED_MEDIA_TYPE` (not
         *     `application/json`), `BODY_TOO_LARGE` (over 1 MiB), `INVALID_BODY` (not a JSON object, or a
         *     `Content-Length` that does not match the body), `MISSING_FIELD`, `UNKNOWN_FIELD`,
         *     `INVALID_FIELD_TYPE`, `TEXT_TOO_SHORT` / `TEXT_TOO_LONG` (fewer than 200 or more than
         *     30,000 Unicode code points), `INVALID_TEXT` (a lone UTF-16 surrogate, or no letter or digit
         *     at all), `INVALID_MAX_ENTITIES` (not an integer from 1 to 100), `INVALID_LANGUAGE_HINT`
         *     (not a lower-case ISO 639-1 code), `UNSUPPORTED_LANGUAGE` (a language other than English,
         *     detected or hinted), `VALIDATION_ERROR` (any other rule of the request schema, such as an
         *     `include` or `offsetEncoding` value that is not one of the listed ones),
         *     `BAD_REQUEST` (a malformed HTTP request).
         */
        AnalyzeBadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AnalyzeBadRequestError"];
            };
        };
        /** @description Missing or invalid token. Always the same body, whatever the cause. */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Unauthorized",
                 *       "code": "INVALID_TOKEN",
                 *       "message": "Invalid or missing API token"
                 *     }
                 */
                "application/json": components["schemas"]["UnauthorizedError"];
            };
        };
        /**
         * @description Not counted. `RATE_LIMITED`: the token's burst limit (requests per second, by plan) is
         *     reached; retry after `retryAfter` seconds. `QUOTA_EXCEEDED`: the daily quota is exhausted
         *     until the next reset (midnight UTC), `retryAfter` seconds away; do not retry before then.
         */
        AnalyzeTooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RateLimitError"];
            };
        };
        /** @description The token's burst limit is reached (`RATE_LIMITED`); not counted. Retry after `retryAfter` seconds. */
        QuotaTooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Rate Limited",
                 *       "code": "RATE_LIMITED",
                 *       "message": "Too many requests for this token: at most 5 per second on its plan; retry after 1 second",
                 *       "retryAfter": 1
                 *     }
                 */
                "application/json": components["schemas"]["BurstLimitError"];
            };
        };
        /**
         * @description An unexpected server error; never counted. Quote `requestId` when reporting it. The
         *     `X-RateLimit-*` headers are sent when the token had been checked before the failure.
         */
        InternalError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit-IfAuthenticated"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining-IfAuthenticated"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset-IfAuthenticated"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Internal Server Error",
                 *       "code": "INTERNAL_ERROR",
                 *       "message": "An unexpected error occurred; quote request id req-3f9a when reporting it",
                 *       "requestId": "req-3f9a"
                 *     }
                 */
                "application/json": components["schemas"]["InternalError"];
            };
        };
        /**
         * @description Temporarily unable to serve; never counted. `OVERLOADED`: the analysis queue is full, or
         *     the account holds its plan's share of it while other accounts wait.
         *     `DATABASE_UNAVAILABLE`: the database does not answer within the statement deadline (2 s by
         *     default), is out of connections or is restarting. `ANALYSIS_TIMEOUT`: the analysis
         *     took too long. `ANALYSIS_FAILED`: the worker running the analysis stopped (it has been
         *     replaced). `SHUTTING_DOWN`: the node is stopping. Retry after `Retry-After` seconds. The
         *     `X-RateLimit-*` headers are sent when the token had been checked before the failure.
         */
        AnalyzeServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit-IfAuthenticated"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining-IfAuthenticated"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset-IfAuthenticated"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Service Unavailable",
                 *       "code": "OVERLOADED",
                 *       "message": "The analysis queue is full; retry after 1 second"
                 *     }
                 */
                "application/json": components["schemas"]["AnalyzeUnavailableError"];
            };
        };
        /**
         * @description Temporarily unable to serve. `DATABASE_UNAVAILABLE`: the database does not answer.
         *     `SHUTTING_DOWN`: the node is stopping. Retry after `Retry-After` seconds. The
         *     `X-RateLimit-*` headers are sent when the token had been checked before the failure.
         */
        QuotaServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit-IfAuthenticated"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining-IfAuthenticated"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset-IfAuthenticated"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Service Unavailable",
                 *       "code": "DATABASE_UNAVAILABLE",
                 *       "message": "The database is not answering; retry in a few seconds"
                 *     }
                 */
                "application/json": components["schemas"]["QuotaUnavailableError"];
            };
        };
        /** @description No such path (the answer to every unknown path, whatever the method). */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Not Found",
                 *       "code": "NOT_FOUND",
                 *       "message": "No route GET /v1/nothing; see /docs for the API"
                 *     }
                 */
                "application/json": components["schemas"]["NotFoundError"];
            };
        };
        /**
         * @description The path exists but not with this method (for example `GET /v1/analyze`, or a browser's
         *     CORS preflight `OPTIONS`, since the API sends no CORS headers). `Allow` lists the path's
         *     methods. The answer to every known path called with another method.
         */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Method Not Allowed",
                 *       "code": "METHOD_NOT_ALLOWED",
                 *       "message": "GET is not a method of /v1/analyze; it allows POST"
                 *     }
                 */
                "application/json": components["schemas"]["MethodNotAllowedError"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /**
         * @description The account's daily quota limit.
         * @example 1000
         */
        "X-RateLimit-Limit": number;
        /**
         * @description Requests remaining today (UTC), after this request.
         * @example 863
         */
        "X-RateLimit-Remaining": number;
        /**
         * @description Unix timestamp (seconds) of the next reset, midnight UTC.
         * @example 1795392000
         */
        "X-RateLimit-Reset": number;
        /**
         * @description The account's daily quota limit; sent when the token was checked before the failure.
         * @example 1000
         */
        "X-RateLimit-Limit-IfAuthenticated": number;
        /**
         * @description Requests remaining today (UTC); sent when the token was checked before the failure.
         * @example 863
         */
        "X-RateLimit-Remaining-IfAuthenticated": number;
        /**
         * @description Unix timestamp (seconds) of the next reset, midnight UTC; sent when the token was checked before the failure.
         * @example 1795392000
         */
        "X-RateLimit-Reset-IfAuthenticated": number;
        /**
         * @description Identifier of this request; quote it when reporting a problem.
         * @example req-3f9a
         */
        "X-Request-Id": string;
        /**
         * @description Seconds to wait before retrying.
         * @example 3600
         */
        "Retry-After": number;
        /**
         * @description The authentication scheme (RFC 6750).
         * @example Bearer
         */
        "WWW-Authenticate": string;
        /**
         * @description The methods the path has (RFC 9110), comma-separated.
         * @example POST
         */
        Allow: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    analyzeText: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AnalyzeRequest"];
            };
        };
        responses: {
            /** @description The analysis. Counted toward the daily quota. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalyzeResult"];
                };
            };
            400: components["responses"]["AnalyzeBadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["AnalyzeTooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AnalyzeServiceUnavailable"];
        };
    };
    getQuota: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The quota. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "plan": "starter",
                     *       "daily": {
                     *         "limit": 1000,
                     *         "used": 137,
                     *         "remaining": 863
                     *       },
                     *       "resetAt": "2026-11-23T00:00:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Quota"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["QuotaTooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["QuotaServiceUnavailable"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok"
                     *     }
                     */
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ready",
                     *       "checks": {
                     *         "database": "ok",
                     *         "model": "ok"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Not ready; `checks` says which part is failing. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "not_ready",
                     *       "checks": {
                     *         "database": "failing",
                     *         "model": "ok"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    /** @example # HELP http_requests_total Requests by route and status */
                    "text/plain": string;
                };
            };
        };
    };
}
