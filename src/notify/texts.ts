// What a notification says to a person, in the languages the pages speak (src/util/locale.ts).
// Notifications belong to the box, not to a user, so they speak the language of the first user
// (the admin made at setup) who chose one on the pages; English until someone did. The event key
// and the fields (domain, ip, …) stay as they are for machines; the words quoted from a service or
// the updater (a failure's cause) stay in English, as the API says them.

import type { NotificationEvent } from "../store/rows";
import type { Locale } from "../util/locale";

const s = (n: number) => (n === 1 ? "" : "s");

const en = {
  titles: {
    ip_changed: "ddnsd: address changed",
    update_failed: "ddnsd: update failed",
    update_recovered: "ddnsd: updates work again",
    detection_failed: "ddnsd: address detection failed",
    not_served: "ddnsd: record not served",
    push_stale: "ddnsd: no push from the router",
    test: "ddnsd: test message",
  } as Record<NotificationEvent | "test", string>,
  itsProvider: "its provider",
  ipChanged: (host: string, ip: string, was: string | null, repaired: boolean) =>
    `${host} now points at ${ip}${was ? ` (was ${was})` : ""}${repaired ? "; it had been changed outside ddnsd" : ""}`,
  updateFailed: (host: string, type: string, provider: string, why: string) =>
    `Updating ${host} (${type}) at ${provider} failed: ${why}`,
  updateRecovered: (host: string, type: string, provider: string, ip: string) =>
    `${host} (${type}) updates again at ${provider}; it points at ${ip}`,
  detectionFailed: (family: number, why: string) => `ddnsd cannot find its public IPv${family} address: ${why}`,
  notServed: (host: string, type: string, why: string) => `${host} (${type}) is written but ${why}`,
  neverPushed: "it was never pushed since it was added",
  lastPush: (at: string) => `its last push was at ${at}`,
  pushStale: (host: string, type: string, since: string) =>
    `${host} (${type}) takes its address only from the router's pushes, and ${since}: is the router still pushing?`,
  test: (name: string) => `This is a test message from ddnsd, sent through "${name}".`,
  beatUp: (records: number, changed: number) => `${records} record${s(records)} checked, ${changed} changed`,
  beatDown: (failed: number, records: number, host: string, type: string, why: string) =>
    `${failed} of ${records} record${s(records)} failed; ${host} (${type}): ${why}`,
};

export type NotificationTexts = typeof en;

const de: NotificationTexts = {
  titles: {
    ip_changed: "ddnsd: Adresse geändert",
    update_failed: "ddnsd: Aktualisierung fehlgeschlagen",
    update_recovered: "ddnsd: Aktualisierungen funktionieren wieder",
    detection_failed: "ddnsd: Adresse nicht ermittelt",
    not_served: "ddnsd: Eintrag wird nicht ausgeliefert",
    push_stale: "ddnsd: keine Meldung vom Router",
    test: "ddnsd: Testnachricht",
  },
  itsProvider: "seinem Anbieter",
  ipChanged: (host, ip, was, repaired) =>
    `${host} zeigt jetzt auf ${ip}${was ? ` (vorher ${was})` : ""}${repaired ? "; der Eintrag war außerhalb von ddnsd geändert worden" : ""}`,
  updateFailed: (host, type, provider, why) =>
    `Die Aktualisierung von ${host} (${type}) bei ${provider} ist fehlgeschlagen: ${why}`,
  updateRecovered: (host, type, provider, ip) =>
    `${host} (${type}) wird bei ${provider} wieder aktualisiert; der Eintrag zeigt auf ${ip}`,
  detectionFailed: (family, why) => `ddnsd kann seine öffentliche IPv${family}-Adresse nicht ermitteln: ${why}`,
  notServed: (host, type, why) => `${host} (${type}) ist geschrieben, aber: ${why}`,
  neverPushed: "seit dem Hinzufügen wurde nie eine Adresse gemeldet",
  lastPush: (at) => `die letzte Meldung kam am ${at}`,
  pushStale: (host, type, since) =>
    `${host} (${type}) erhält seine Adresse nur aus den Meldungen des Routers, und ${since}: Meldet der Router noch?`,
  test: (name) => `Dies ist eine Testnachricht von ddnsd, gesendet über „${name}“.`,
  beatUp: (records, changed) => `${records} ${records === 1 ? "Eintrag" : "Einträge"} geprüft, ${changed} geändert`,
  beatDown: (failed, records, host, type, why) =>
    `${failed} von ${records} ${records === 1 ? "Eintrag" : "Einträgen"} fehlgeschlagen; ${host} (${type}): ${why}`,
};

const zhCN: NotificationTexts = {
  titles: {
    ip_changed: "ddnsd：地址已变更",
    update_failed: "ddnsd：更新失败",
    update_recovered: "ddnsd：更新已恢复",
    detection_failed: "ddnsd：无法检测地址",
    not_served: "ddnsd：记录未生效",
    push_stale: "ddnsd：未收到路由器推送",
    test: "ddnsd：测试消息",
  },
  itsProvider: "其服务商",
  ipChanged: (host, ip, was, repaired) =>
    `${host} 现在指向 ${ip}${was ? `（之前为 ${was}）` : ""}${repaired ? "；该记录曾在 ddnsd 之外被修改" : ""}`,
  updateFailed: (host, type, provider, why) => `在 ${provider} 更新 ${host}（${type}）失败：${why}`,
  updateRecovered: (host, type, provider, ip) => `${host}（${type}）在 ${provider} 恢复更新；现在指向 ${ip}`,
  detectionFailed: (family, why) => `ddnsd 无法获取其公网 IPv${family} 地址：${why}`,
  notServed: (host, type, why) => `${host}（${type}）已写入，但：${why}`,
  neverPushed: "自添加以来从未收到推送",
  lastPush: (at) => `上次推送时间为 ${at}`,
  pushStale: (host, type, since) => `${host}（${type}）只从路由器推送获取地址，而${since}：路由器还在推送吗？`,
  test: (name) => `这是一条来自 ddnsd 的测试消息，通过“${name}”发送。`,
  beatUp: (records, changed) => `已检查 ${records} 条记录，${changed} 条有变化`,
  beatDown: (failed, records, host, type, why) => `${records} 条记录中有 ${failed} 条失败；${host}（${type}）：${why}`,
};

const TEXTS: Record<Locale, NotificationTexts> = { en, de, "zh-CN": zhCN };

export function notificationTexts(locale: Locale): NotificationTexts {
  return TEXTS[locale];
}
