/**
 * The Lua scripts of the shared rate limiter: each runs atomically in Redis, and
 * both read "now" from Redis (`TIME`), one clock for the whole fleet, compared
 * with the reset epoch the API server reported. They follow `takeFromBucket` and
 * `updateBucket` of the in-memory limiter (src/core/rate-limiter.ts) step by step.
 * State: a hash with `limit`, `remaining`, `reset` (epoch ms), `rolled`,
 * `rolled_at`, `taken`, `stale` (`staleAnswers`), `in_flight_at_roll` and `pending`.
 */

/**
 * KEYS[1] the bucket; ARGV[1] the poll interval, ARGV[2] the hold. Returns 0 (go; the
 * slot is counted), the milliseconds until the reported reset, or ARGV[1] when the
 * reset has passed less than ARGV[2] ms ago and `limit` calls already went into the
 * new window (`NEW_WINDOW_POLL_MS`, `NEW_WINDOW_HOLD_MS`).
 */
export const TAKE_FROM_BUCKET = `local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'remaining', 'reset', 'rolled', 'limit', 'pending', 'taken', 'rolled_at')
if not state[2] then
  redis.call('HSET', KEYS[1], 'limit', 0, 'remaining', 0, 'reset', 0, 'rolled', '1', 'taken', 0, 'stale', 0, 'in_flight_at_roll', 0, 'pending', 0, 'rolled_at', 0)
  redis.call('PEXPIRE', KEYS[1], 60000)
  state = { '0', '0', '1', '0', '0', '0', '0' }
end
local remaining = tonumber(state[1])
local reset = tonumber(state[2])
local rolled = state[3] == '1'
local limit = tonumber(state[4])
local taken = tonumber(state[6] or '0')
local rolledAt = tonumber(state[7] or '0')
if not rolled and now >= reset then
  rolled = true
  taken = 0
  rolledAt = now
  redis.call('HSET', KEYS[1], 'rolled', '1', 'taken', 0, 'stale', 0, 'in_flight_at_roll', tonumber(state[5] or '0'), 'rolled_at', now)
end
if rolled then
  if limit > 0 and taken >= limit and now - rolledAt < tonumber(ARGV[2]) then return ARGV[1] end
  redis.call('HINCRBY', KEYS[1], 'taken', 1)
elseif remaining > 0 then
  redis.call('HINCRBY', KEYS[1], 'remaining', -1)
else
  return reset - now
end
if limit == 0 or tonumber(state[5] or '0') < limit then redis.call('HINCRBY', KEYS[1], 'pending', 1) end
return 0`;

/**
 * KEYS[1] the bucket; ARGV[1] 1 when the call may have reached the server, 0 when it
 * never left: a call counted in flight ended without a rate-limit answer
 * (`releaseFromBucket`). Before the reset, one that never left gives its slot back to
 * the window (up to `limit`); once the reset has passed, either leaves the calls in
 * flight when it passed (`in_flight_at_roll`) while any remain, else `taken`.
 */
export const RELEASE_FROM_BUCKET = `local state = redis.call('HMGET', KEYS[1], 'pending', 'in_flight_at_roll', 'rolled', 'remaining', 'limit', 'taken')
local pending = tonumber(state[1] or '0')
if pending > 0 then
  pending = pending - 1
  local atRoll = tonumber(state[2] or '0')
  if state[3] ~= '0' and atRoll > 0 then
    atRoll = atRoll - 1
  elseif state[3] ~= '0' and tonumber(state[6] or '0') > 0 then
    redis.call('HINCRBY', KEYS[1], 'taken', -1)
  elseif ARGV[1] == '0' and state[3] == '0' then
    redis.call('HSET', KEYS[1], 'remaining', math.min(tonumber(state[5] or '0'), tonumber(state[4] or '0') + 1))
  end
  redis.call('HSET', KEYS[1], 'pending', pending, 'in_flight_at_roll', math.min(atRoll, pending))
end
return 0`;

/**
 * KEYS[1] the bucket; ARGV limit, remaining, reset (epoch ms) of a response, and
 * whether Redis counted the call in flight (`'0'`: its slot was taken from a process's
 * memory while Redis could not answer, so `pending` and the stale-answer counts are
 * left alone; left out: counted). Kept a minute past the reset.
 */
export const UPDATE_BUCKET = `local limit = tonumber(ARGV[1])
local remaining = tonumber(ARGV[2])
local reset = tonumber(ARGV[3])
local counted = ARGV[4] ~= '0'
local state = redis.call('HMGET', KEYS[1], 'remaining', 'reset', 'rolled', 'taken', 'pending', 'stale', 'in_flight_at_roll')
local storedReset = tonumber(state[2])
local rolled = state[3] == '1'
local taken = tonumber(state[4] or '0')
local pending = tonumber(state[5] or '0')
if counted then
  pending = math.max(0, pending - 1)
end
local stale = tonumber(state[6] or '0')
local atRoll = tonumber(state[7] or '0')
if storedReset and reset <= storedReset then
  if reset < storedReset or rolled then
    if counted and rolled and atRoll > 0 then
      atRoll = math.min(atRoll - 1, pending)
    elseif counted and rolled and reset == storedReset then
      stale = math.min(taken, stale + 1)
    end
    redis.call('HSET', KEYS[1], 'pending', pending, 'stale', stale, 'in_flight_at_roll', atRoll)
    return 0
  end
  redis.call('HSET', KEYS[1], 'limit', limit, 'remaining', math.min(remaining, tonumber(state[1])), 'pending', pending)
  return 1
end
if rolled then
  remaining = math.min(remaining, limit - (taken - stale))
else
  remaining = remaining - pending
end
redis.call('HSET', KEYS[1], 'limit', limit, 'remaining', math.max(0, remaining), 'reset', reset, 'rolled', '0', 'taken', 0, 'stale', 0, 'in_flight_at_roll', 0, 'pending', pending)
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('PEXPIRE', KEYS[1], math.max(reset - now, 0) + 60000)
return 1`;
