// Starts the telegram-test-api Bot API emulator for alice's Telegram
// connector integration test. Bot side: http://HOST:PORT/bot<TOKEN>/<method>.
// Client side (what the Go test uses to play the human):
//   POST /sendMessage  {botToken, from, chat, text, date}
//   POST /sendCallback {botToken, from, message, data, date}
//   POST /getUpdates   {token, chatId}  -> the bot's unread messages
// Usage: node emulator.mjs  (env TELEGRAM_EMULATOR_HOST, TELEGRAM_EMULATOR_PORT)
import TelegramServer from 'telegram-test-api';

const host = process.env.TELEGRAM_EMULATOR_HOST || '127.0.0.1';
const port = Number(process.env.TELEGRAM_EMULATOR_PORT || 9000);
const Server = TelegramServer.TelegramServer || TelegramServer.default || TelegramServer;
const server = new Server({ host, port, storeTimeout: 120 });
await server.start();
console.log(`telegram emulator ready on ${server.config.apiURL}`);

const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
