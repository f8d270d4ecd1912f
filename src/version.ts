/** The version of this package, sent in the `User-Agent` header where the runtime allows it. */
export const VERSION = '0.1.0';
