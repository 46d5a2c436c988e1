import Database from 'better-sqlite3'
const db = new Database(process.argv[2], { readonly: true })
const tenant = db.prepare("select tenant_id from tag_cost_series limit 1").get().tenant_id
const t = (label, q, ...a) => { const s = performance.now(); const r = db.prepare(q).all(...a); console.log(label, (performance.now()-s).toFixed(0)+'ms', r.length) ; return r}
const base = `from tag_cost_series where tenant_id = ? and tag_key = 'team' and date >= '2026-08-01' and date <= '2026-11-27'`
const rgs = db.prepare(`select distinct resource_group_key r from group_cost_series`).all().map(r => r.r)
const pairs = []; for (let i = 0; i < 60; i++) pairs.push([`team-${String(i % 20).padStart(2,'0')}`, rgs[(i * 7) % rgs.length]])
const vals = pairs.map(p => `('${p[0]}','${p[1]}')`).join(',')
const teams = [...new Set(pairs.map(p=>p[0]))].map(v=>`'${v}'`).join(','); const groups = [...new Set(pairs.map(p=>p[1]))].map(v=>`'${v}'`).join(',')
console.log(new Set(pairs.map(String)).size, 'pairs', groups.split(',').length, 'groups')
for (let i = 0; i < 2; i++) {
t('T+G pairs', `select date, tag_value, currency, charge_category, resource_group_key, sum(cost) ${base} and (tag_value, resource_group_key) in (values ${vals}) group by date, tag_value, currency, charge_category, resource_group_key`, tenant)
t('T+G in-lists', `select date, tag_value, currency, charge_category, resource_group_key, sum(cost) ${base} and tag_value in (${teams}) and resource_group_key in (${groups}) group by date, tag_value, currency, charge_category, resource_group_key`, tenant)
t('T+G nogroup pairs', `select date, tag_value, currency, charge_category, resource_group_key, cost ${base} and (tag_value, resource_group_key) in (values ${vals})`, tenant)
t('T+G order rg first', `select resource_group_key, date, tag_value, currency, charge_category, sum(cost) ${base} group by resource_group_key, date, tag_value, currency, charge_category`, tenant)
}
console.log(db.pragma('temp_store'), db.pragma('cache_size'), db.prepare('select sqlite_version() v').get())
