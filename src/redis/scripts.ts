/**
 * The Lua scripts of the shared rate limiter: each runs atomically in Redis, and
 * both read "now" from Redis (`TIME`), one clock for the whole fleet, compared
 * with the reset epoch the API server reported. They follow `takeFromBucket` and
 * `updateBucket` of the in-memory limiter (src/core/rate-limiter.ts) line by line.
 * State: a hash with `limit`, `remaining`, `reset` (epoch ms) and `rolled`.
 */

/** KEYS[1] the bucket. Returns 0 (go; a slot is taken) or the milliseconds until the reported reset. */
export const TAKE_FROM_BUCKET = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'limit', 'remaining', 'reset', 'rolled')
local limit = tonumber(state[1])
if not limit then return 0 end
local remaining = tonumber(state[2])
local reset = tonumber(state[3])
local rolled = state[4] == '1'
if not rolled and now >= reset then
  rolled = true
  remaining = limit
  redis.call('HSET', KEYS[1], 'rolled', '1')
end
if remaining > 0 then
  redis.call('HSET', KEYS[1], 'remaining', remaining - 1)
  return 0
end
if rolled then return 0 end
return reset - now`;

/** KEYS[1] the bucket; ARGV limit, remaining, reset (epoch ms) of a response. Kept a minute past the reset. */
export const UPDATE_BUCKET = `local limit = tonumber(ARGV[1])
local remaining = tonumber(ARGV[2])
local reset = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'remaining', 'reset', 'rolled')
local storedReset = tonumber(state[2])
if storedReset and reset < storedReset then return 0 end
if storedReset and reset == storedReset then
  if state[3] == '1' then return 0 end
  remaining = math.min(remaining, tonumber(state[1]))
end
redis.call('HSET', KEYS[1], 'limit', limit, 'remaining', remaining, 'reset', reset, 'rolled', '0')
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('PEXPIRE', KEYS[1], math.max(reset - now, 0) + 60000)
return 1`;
