#!/usr/bin/env bash
# Every operation once, against a running service (`npm start` in another terminal): each step says what it does and
# prints the answer, and a refused request stops the script with the answer's error. BASE_URL aims it elsewhere.
set -euo pipefail

BASE_URL=${BASE_URL:-http://localhost:3000}
ADMIN=$(npm run --silent keys) # the development admin key, from data/development-secrets.json

echo "== Add client (admin key): answers the client with its new secretKey"
CLIENT=$(curl --fail-with-body -sS -X POST "$BASE_URL/api/client/add" -H "x-api-key: $ADMIN" -H 'content-type: application/json' \
  -d '{"appName":"Billing","appUrl":"https://billing.example.com","appDescription":"Invoices","preferredSmsGateway":"twilio","isHost":false}') ||
  { echo "$CLIENT"; exit 1; }
echo "$CLIENT"
KEY=$(node -e 'let answer = ""; process.stdin.on("data", (chunk) => (answer += chunk));
  process.stdin.on("end", () => console.log(JSON.parse(answer).results.secretKey));' <<<"$CLIENT")

echo "== Get client by secret key: the client and its SMS configurations (404 for an unknown key)"
curl --fail-with-body -sS -X POST "$BASE_URL/api/client/get/secretKey" -H "secretKey: $KEY"
echo

echo "== Add SMS configuration (secretKey): password and apiKey are stored encrypted and never returned"
curl --fail-with-body -sS -X POST "$BASE_URL/api/sms-config/add" -H "secretKey: $KEY" -H 'content-type: application/json' \
  -d '{"providerName":"twilio","providerUrl":"https://twilio.com","username":"acme","password":"p4ss","apiKey":"k3y",
       "senderId":"ACME","smsType":"Transactional","smsApi":"https://api.twilio.com/send",
       "balanceUrl":"https://api.twilio.com/balance","balance":12.5,"perSmsCost":0.0125,"isActive":true}'
echo

echo "== Get SMS configurations by client (secretKey): ordered by smsConfigId"
curl --fail-with-body -sS -X POST "$BASE_URL/api/sms-config/get-all-by-client-id" -H "secretKey: $KEY"
echo

echo "== Create exchange (admin key): durable; again with the same type is fine, another type is 409"
curl --fail-with-body -sS -X POST "$BASE_URL/api/v1/rabbitmq/exchanges" -H "x-api-key: $ADMIN" -H 'content-type: application/json' \
  -d '{"name":"notifications.sms","type":"topic"}'
echo

echo "== Readiness"
curl --fail-with-body -sS "$BASE_URL/health"
echo
