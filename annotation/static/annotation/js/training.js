// Training / anchor clips: Earshot's player with free seeking (these are examples, not work).
import { mountAll } from "/static/frontend/js/player.js";

mountAll(document);
