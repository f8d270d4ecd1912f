import * as z from 'zod/mini';

/** `page`: the page index, an integer from 0. */
export const PageSchema = z.int('page must be an integer').check(z.minimum(0, 'page must be >= 0'));

/** `per_page`: records per page, an integer from 1 to 100 (spec section 8). */
export const PerPageSchema = z
  .int('per_page must be an integer')
  .check(z.minimum(1, 'per_page must be between 1 and 100'), z.maximum(100, 'per_page must be between 1 and 100'));
