#!/usr/bin/env bash
# The life of a client and of one of its SMS configurations, against a running service (`npm start` with
# DISPATCHER_API_KEYS set, in another terminal): each step says what it does and prints the answer, and an answer with
# another status than the step expects stops the script. BASE_URL aims it elsewhere; DISPATCHER_KEY is one of the keys
# the service was started with in DISPATCHER_API_KEYS.
set -euo pipefail

BASE_URL=${BASE_URL:-http://127.0.0.1:3000}
ADMIN=$(npm run --silent keys) # the development admin key, from data/development-secrets.json
DISPATCHER=${DISPATCHER_KEY:?set DISPATCHER_KEY to a key the service was started with in DISPATCHER_API_KEYS}
APP_NAME="lifecycle-$(date +%s)-$RANDOM" # a name no other client starts with, to find this one in the list

# call STATUS METHOD PATH [curl options]: prints the answer (values of password and apiKey hidden) and keeps it in
# ANSWER; an answer with another HTTP status than STATUS (one, or several as 200|409) stops the script.
call() {
  local expected=$1 method=$2 path=$3 status
  shift 3
  ANSWER=$(curl -sS -X "$method" "$BASE_URL$path" -w '\n%{http_code}' "$@")
  status=${ANSWER##*$'\n'}
  ANSWER=${ANSWER%$'\n'*}
  node -e 'let answer = ""; process.stdin.on("data", (chunk) => (answer += chunk));
    process.stdin.on("end", () => console.log(JSON.stringify(JSON.parse(answer),
      (name, value) => (["password", "apiKey"].includes(name) && typeof value === "string" ? "(hidden)" : value))));' <<<"$ANSWER"
  [[ $status =~ ^($expected)$ ]] || { echo "expected HTTP $expected, got $status" >&2; exit 1; }
}

# field PATH: one value of the last answer, such as results.secretKey or results.items.0.clientId
field() {
  node -e 'let answer = ""; process.stdin.on("data", (chunk) => (answer += chunk));
    process.stdin.on("end", () => console.log(process.argv[1].split(".").reduce((value, name) => value[name], JSON.parse(answer))));' \
    "$1" <<<"$ANSWER"
}

JSON='content-type: application/json'

echo "== Add client (admin key): answers its secretKey, the only time the key is ever shown"
call 200 POST /api/client/add -H "x-api-key: $ADMIN" -H "$JSON" \
  -d "{\"appName\":\"$APP_NAME\",\"appUrl\":\"https://billing.example.com\",\"isHost\":false}"
KEY=$(field results.secretKey)

echo "== Find it (admin key): clients whose appName starts with the one given, a page of {items, nextCursor}"
call 200 GET "/api/v1/clients?appName=$APP_NAME&limit=1" -H "x-api-key: $ADMIN"
CLIENT_ID=$(field results.items.0.clientId)

echo "== Change it (admin key): only the fields sent; answers the client as stored"
call 200 PATCH "/api/v1/clients/$CLIENT_ID" -H "x-api-key: $ADMIN" -H "$JSON" \
  -d '{"appDescription":"Invoices and reminders","preferredSmsGateway":"twilio"}'

echo "== Disable it (admin key): isActive false"
call 200 PATCH "/api/v1/clients/$CLIENT_ID" -H "x-api-key: $ADMIN" -H "$JSON" -d '{"isActive":false}'
sleep 1 # every instance refuses the client's keys within 1 s

echo "== Its key is refused on every route (secretKey): 403 Client is disabled"
call 403 POST /api/client/get/secretKey -H "secretKey: $KEY"

echo "== Enable it (admin key): isActive true"
call 200 PATCH "/api/v1/clients/$CLIENT_ID" -H "x-api-key: $ADMIN" -H "$JSON" -d '{"isActive":true}'
sleep 1

echo "== Its key works again: get client by secret key"
call 200 POST /api/client/get/secretKey -H "secretKey: $KEY"

echo "== Approve the provider's host (admin key): the dispatcher is offered only approved hosts (409: approved before)"
call '200|409' POST /api/v1/provider-hosts -H "x-api-key: $ADMIN" -H "$JSON" -d '{"host":"api.twilio.com","note":"Twilio"}'

echo "== Add SMS configuration (secretKey): password and apiKey are sealed; answers a verifyApiKey for the dispatcher"
call 200 POST /api/sms-config/add -H "secretKey: $KEY" -H "$JSON" \
  -d '{"providerName":"twilio","smsApi":"https://api.twilio.com/send","username":"acme","password":"p4ss","apiKey":"k3y",
       "senderId":"ACME","smsType":"Transactional","balance":12.5,"perSmsCost":0.0125}'
FIRST_TOKEN=$(field results.verifyApiKey)

echo "== List the client's SMS configurations (secretKey): each with its smsConfigId"
call 200 POST /api/sms-config/get-all-by-client-id -H "secretKey: $KEY"
CONFIG_ID=$(field results.0.smsConfigId)

echo "== Read it (secretKey): never the password or apiKey"
call 200 GET "/api/v1/sms-configs/$CONFIG_ID" -H "secretKey: $KEY"

echo "== Change it (secretKey): a new apiKey replaces the sealed one; answers the configuration and a fresh verifyApiKey"
call 200 PATCH "/api/v1/sms-configs/$CONFIG_ID" -H "secretKey: $KEY" -H "$JSON" -d '{"senderId":"ACME2","apiKey":"k3y-2"}'

echo "== Resolve the first verifyApiKey (dispatcher key): 409, stale since the apiKey was replaced"
call 409 POST /api/v1/sms-configs/resolve -H "x-api-key: $DISPATCHER" -H "$JSON" -d "{\"verifyApiKey\":\"$FIRST_TOKEN\"}"

echo "== Issue a fresh verifyApiKey (secretKey): nothing stored changes"
call 200 POST "/api/v1/sms-configs/$CONFIG_ID/verify-api-key" -H "secretKey: $KEY"
TOKEN=$(field results.verifyApiKey)

echo "== Resolve it (dispatcher key): the configuration with its password and apiKey (their values hidden here)"
call 200 POST /api/v1/sms-configs/resolve -H "x-api-key: $DISPATCHER" -H "$JSON" -d "{\"verifyApiKey\":\"$TOKEN\"}"

echo "== Resolve it with the admin key: 403, only a dispatcher key may"
call 403 POST /api/v1/sms-configs/resolve -H "x-api-key: $ADMIN" -H "$JSON" -d "{\"verifyApiKey\":\"$TOKEN\"}"

echo "== Rotate the secret key (secretKey): the new key works at once, the previous one until previousKeyExpiresAt"
call 200 POST /api/v1/client/secret-key/rotate -H "secretKey: $KEY" -H "$JSON" -d '{"graceSeconds":3600}'
PREVIOUS_KEY=$KEY
KEY=$(field results.secretKey)

echo "== The previous key still opens the client until then"
call 200 POST /api/client/get/secretKey -H "secretKey: $PREVIOUS_KEY"

echo "== But it may not rotate: 403, only the current key may"
call 403 POST /api/v1/client/secret-key/rotate -H "secretKey: $PREVIOUS_KEY"

echo "== Delete the SMS configuration (secretKey)"
call 200 DELETE "/api/v1/sms-configs/$CONFIG_ID" -H "secretKey: $KEY"

echo "== Resolve its verifyApiKey (dispatcher key): 404, the configuration is gone"
call 404 POST /api/v1/sms-configs/resolve -H "x-api-key: $DISPATCHER" -H "$JSON" -d "{\"verifyApiKey\":\"$TOKEN\"}"

echo "== Delete the client (admin key): with any configurations it still has"
call 200 DELETE "/api/v1/clients/$CLIENT_ID" -H "x-api-key: $ADMIN"
sleep 1 # its keys are unknown on every instance within 1 s

echo "== Its current key is unknown: get client answers 404"
call 404 POST /api/client/get/secretKey -H "secretKey: $KEY"

echo "== So is its previous key"
call 404 POST /api/client/get/secretKey -H "secretKey: $PREVIOUS_KEY"

echo "== The audit log keeps every change (admin key): newest first, the names of the fields changed, never a value"
call 200 GET "/api/v1/audit-events?clientId=$CLIENT_ID" -H "x-api-key: $ADMIN"
