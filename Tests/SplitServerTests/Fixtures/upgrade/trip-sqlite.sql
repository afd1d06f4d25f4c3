PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_migrations (id TEXT PRIMARY KEY, applied_at BIGINT NOT NULL);
INSERT INTO schema_migrations VALUES('0001_accounts',1795452715086);
INSERT INTO schema_migrations VALUES('0002_groups_and_members',1795452715088);
INSERT INTO schema_migrations VALUES('0003_auth_attempts',1795452715089);
INSERT INTO schema_migrations VALUES('0004_one_owner_per_group',1795452715090);
INSERT INTO schema_migrations VALUES('0005_expenses_and_ledger',1795452715095);
INSERT INTO schema_migrations VALUES('0006_pairwise_ledger',1795452715098);
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    email TEXT UNIQUE,
    phone TEXT UNIQUE,
    display_name TEXT NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
    password_hash TEXT NOT NULL,
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    version BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CHECK (email IS NOT NULL OR phone IS NOT NULL)
);
INSERT INTO users VALUES('32117117-86ad-4eca-ba25-0891c88d62dd','aki@example.com',NULL,'Aki','$2b$12$6itIyJ7e6oLFiplvNSMMBuPnLO/Rmzn4UWgdvJNtXe2wremwgB.hK',1,1,1795452715851,1795452715851);
INSERT INTO users VALUES('f615d7ea-fa33-40e4-848b-7ebe9f513ba7','bo@example.com',NULL,'Bo','$2b$12$a0M214D9M9waNDHgUlJo1en5c0IC2QvwwmprPj31YmB.Q1kQmAW2O',1,1,1795452716280,1795452716280);
INSERT INTO users VALUES('8af81505-a2b3-4309-9d21-712285d56e59','chen@example.com',NULL,'Chen Wei','$2b$12$8WXlaSC1Ag9zO5veCN4a2uMBppiW/NqkOOjkamcYDnPCDxeNDGoe.',1,1,1795452716652,1795452716652);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    token_hash TEXT NOT NULL UNIQUE,
    device_id TEXT,
    device_name TEXT,
    ip_address TEXT,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT
);
INSERT INTO sessions VALUES('b87f1e31-aaa6-4c06-b548-cf37b59a4614','32117117-86ad-4eca-ba25-0891c88d62dd','f827da335c04aa5530af9155c4abc718a7a60e283a0754dd3e9c1b1617c32b23','fixture-aki','make-upgrade-fixture','127.0.0.1',1795452716270,1795452716270,1798044716270,1795452717388);
INSERT INTO sessions VALUES('459c7087-26b1-4efb-8b64-1edc4e00e974','f615d7ea-fa33-40e4-848b-7ebe9f513ba7','520af9e2badc659ad9b0cb8bc46fa823f600306fcb740ace08b43540bed7cd67','fixture-bo','make-upgrade-fixture','127.0.0.1',1795452716647,1795452716647,1798044716647,1795452717391);
INSERT INTO sessions VALUES('96913f95-595d-402e-851a-16854ebf694d','8af81505-a2b3-4309-9d21-712285d56e59','4d9ee0ba09850030e285f4f1e44d92293e1cb937ad78d95bdbe9bac034da1634','fixture-chen','make-upgrade-fixture','127.0.0.1',1795452717018,1795452717018,1798044717018,1795452717394);
CREATE TABLE groups (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    description TEXT NOT NULL DEFAULT '',
    home_currency TEXT NOT NULL CHECK (length(home_currency) = 3),
    owner_user_id TEXT NOT NULL REFERENCES users (id),
    invite_code TEXT UNIQUE,
    is_archived BOOLEAN NOT NULL DEFAULT FALSE,
    version BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
, change_seq BIGINT NOT NULL DEFAULT 0);
INSERT INTO "groups" VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','Japan 2026 🗾',replace('Golden Week: KL → Tokyo → Osaka\nSettle by June.','\n',char(10)),'MYR','32117117-86ad-4eca-ba25-0891c88d62dd','r6ey37nhcecmc8namh3n',0,3,1795452717024,1795452717358,48);
INSERT INTO "groups" VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','Singapore weekend','','SGD','f615d7ea-fa33-40e4-848b-7ebe9f513ba7','vqcmns5ujm6wsjexn9fq',0,1,1795452717362,1795452717362,4);
CREATE TABLE members (
    id TEXT PRIMARY KEY,
    group_id TEXT NOT NULL REFERENCES groups (id),
    user_id TEXT REFERENCES users (id),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
    can_add_expenses BOOLEAN NOT NULL DEFAULT TRUE,
    can_edit_own_expenses BOOLEAN NOT NULL DEFAULT TRUE,
    can_edit_all_expenses BOOLEAN NOT NULL DEFAULT FALSE,
    can_mark_paid BOOLEAN NOT NULL DEFAULT TRUE,
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    version BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (group_id, user_id)
);
INSERT INTO members VALUES('fb8025ea-af9b-4b44-95e8-90b30a945ed0','de012bda-f01c-51ea-956e-25ceda9d7a6e','32117117-86ad-4eca-ba25-0891c88d62dd','Aki','owner',1,1,1,1,1,1,1795452717024,1795452717024);
INSERT INTO members VALUES('19357307-6a1e-57db-b8e3-b603ef232ad4','de012bda-f01c-51ea-956e-25ceda9d7a6e','8af81505-a2b3-4309-9d21-712285d56e59','Chen','member',1,1,0,0,1,3,1795452717032,1795452717339);
INSERT INTO members VALUES('e6b68adb-5b9a-5058-a391-c875441a07fe','de012bda-f01c-51ea-956e-25ceda9d7a6e',NULL,'Dee (cousin)','member',0,1,0,1,1,2,1795452717038,1795452717344);
INSERT INTO members VALUES('a2e9431e-a00f-5fc7-a77d-3e505eb8ba3b','de012bda-f01c-51ea-956e-25ceda9d7a6e',NULL,'Eve','member',1,1,0,1,0,2,1795452717043,1795452717348);
INSERT INTO members VALUES('57374ad7-f911-4c73-ad23-98fca78da80b','de012bda-f01c-51ea-956e-25ceda9d7a6e','f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo','admin',1,1,1,1,1,2,1795452717047,1795452717333);
INSERT INTO members VALUES('b13d0a4b-6a85-47a6-b9ab-6e598e433e07','14fd82f0-cdfa-506c-b703-81e6cbf5791d','f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo B.','owner',1,1,1,1,1,1,1795452717362,1795452717362);
INSERT INTO members VALUES('1292ecdd-9156-41c4-bba0-36b92a7206e2','14fd82f0-cdfa-506c-b703-81e6cbf5791d','32117117-86ad-4eca-ba25-0891c88d62dd','Aki','member',1,1,0,1,1,1,1795452717368,1795452717368);
CREATE TABLE auth_attempts (
    id TEXT PRIMARY KEY,
    scope TEXT NOT NULL CHECK (scope IN ('login_account', 'login_address', 'register_address')),
    subject TEXT NOT NULL,
    at BIGINT NOT NULL
);
INSERT INTO auth_attempts VALUES('7132c4c1-e614-4e72-adb5-c4b961839911','register_address','5cb01652e9d4c3a822628b8cb5cad545ebe438dfbcb8533942aea3079556bb53',1795452715848);
INSERT INTO auth_attempts VALUES('9326817e-6524-4b8e-9808-c5e50098665c','register_address','5cb01652e9d4c3a822628b8cb5cad545ebe438dfbcb8533942aea3079556bb53',1795452716279);
INSERT INTO auth_attempts VALUES('dd05ace5-3428-4e3c-b4e8-c634eb0ddcab','register_address','5cb01652e9d4c3a822628b8cb5cad545ebe438dfbcb8533942aea3079556bb53',1795452716651);
CREATE TABLE categories (
    id TEXT PRIMARY KEY,
    group_id TEXT NOT NULL REFERENCES groups (id),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 50),
    icon TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT '',
    is_default BOOLEAN NOT NULL DEFAULT FALSE,
    position BIGINT NOT NULL,
    is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
    version BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
INSERT INTO categories VALUES('e612ead9-452e-5b10-aada-ae98d89592f4','de012bda-f01c-51ea-956e-25ceda9d7a6e','Meal','🍜','#E4572E',1,0,0,1,1795452717024,1795452717024);
INSERT INTO categories VALUES('0d2f7404-f335-5b83-961e-51ecb541a421','de012bda-f01c-51ea-956e-25ceda9d7a6e','Transport','🚆','#2E86AB',1,1,0,1,1795452717024,1795452717024);
INSERT INTO categories VALUES('e51c7851-42ea-5516-97f9-23f58ec2f3d7','de012bda-f01c-51ea-956e-25ceda9d7a6e','Tickets','🎫','#A23B72',1,2,0,1,1795452717024,1795452717024);
INSERT INTO categories VALUES('fbacbbc9-4226-5e93-999b-f731bc6dddd5','de012bda-f01c-51ea-956e-25ceda9d7a6e','Shopping','🛍️','#F18F01',1,3,0,1,1795452717024,1795452717024);
INSERT INTO categories VALUES('4c23468e-6a8b-5e69-ab6c-04833285541c','de012bda-f01c-51ea-956e-25ceda9d7a6e','Hotel','🏨','#3B8B5A',1,4,0,1,1795452717024,1795452717024);
INSERT INTO categories VALUES('d525f5ce-fe48-55ff-a8a4-41f17e176a4e','de012bda-f01c-51ea-956e-25ceda9d7a6e','Other','📦','#6C757D',1,5,0,1,1795452717024,1795452717024);
INSERT INTO categories VALUES('85c02764-eaac-5fd3-8ee0-74d4f10d062c','de012bda-f01c-51ea-956e-25ceda9d7a6e','Souvenirs','🎁','#8E44AD',0,6,0,1,1795452717056,1795452717056);
INSERT INTO categories VALUES('cc3a491c-44ef-5bee-9f49-f1fcbddae573','de012bda-f01c-51ea-956e-25ceda9d7a6e','Snacks & drinks','🍡','#E76F51',0,7,0,2,1795452717061,1795452717276);
INSERT INTO categories VALUES('501de63a-fbc1-5107-a85f-08712b96cf6c','de012bda-f01c-51ea-956e-25ceda9d7a6e','Day trips','🏷️','#6C757D',0,8,1,2,1795452717066,1795452717281);
INSERT INTO categories VALUES('401c83fa-efbc-5357-b6be-3781d739228e','14fd82f0-cdfa-506c-b703-81e6cbf5791d','Meal','🍜','#E4572E',1,0,0,1,1795452717362,1795452717362);
INSERT INTO categories VALUES('2a5dd52d-c03f-5723-be80-e147ab158de9','14fd82f0-cdfa-506c-b703-81e6cbf5791d','Transport','🚆','#2E86AB',1,1,0,1,1795452717362,1795452717362);
INSERT INTO categories VALUES('b13bcac3-d9cd-5bfb-b391-6a25b1d570bd','14fd82f0-cdfa-506c-b703-81e6cbf5791d','Tickets','🎫','#A23B72',1,2,0,1,1795452717362,1795452717362);
INSERT INTO categories VALUES('c260ce68-2c67-5136-8538-86190398dd16','14fd82f0-cdfa-506c-b703-81e6cbf5791d','Shopping','🛍️','#F18F01',1,3,0,1,1795452717362,1795452717362);
INSERT INTO categories VALUES('587f53ec-8814-547c-a266-3de67b392483','14fd82f0-cdfa-506c-b703-81e6cbf5791d','Hotel','🏨','#3B8B5A',1,4,0,1,1795452717362,1795452717362);
INSERT INTO categories VALUES('744d7555-269a-5938-955f-d83701f191d2','14fd82f0-cdfa-506c-b703-81e6cbf5791d','Other','📦','#6C757D',1,5,0,1,1795452717362,1795452717362);
CREATE TABLE expenses (
    id TEXT PRIMARY KEY,
    group_id TEXT NOT NULL REFERENCES groups (id),
    description TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 200),
    amount BIGINT NOT NULL CHECK (amount > 0),
    currency TEXT NOT NULL CHECK (length(currency) = 3),
    category_id TEXT NOT NULL REFERENCES categories (id),
    expense_date TEXT NOT NULL CHECK (length(expense_date) = 10),
    split_json TEXT NOT NULL,
    home_amount BIGINT,
    -- The home currency home_amount is in: the group's may change later.
    home_currency TEXT,
    created_by_user_id TEXT NOT NULL REFERENCES users (id),
    is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
    version BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
INSERT INTO expenses VALUES('24374f8e-070d-548a-b049-1c7e2adb91ae','de012bda-f01c-51ea-956e-25ceda9d7a6e','Flights KUL–NRT',240000,'MYR','0d2f7404-f335-5b83-961e-51ecb541a421','2026-04-28','{"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"equal"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,2,1795452717080,1795452717308);
INSERT INTO expenses VALUES('121a73fc-1259-58b4-8c80-b36de6f034f0','de012bda-f01c-51ea-956e-25ceda9d7a6e','Hotel Shinjuku, 3 nights',100000,'JPY','4c23468e-6a8b-5e69-ab6c-04833285541c','2026-04-29','{"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,1,1795452717092,1795452717092);
INSERT INTO expenses VALUES('467f7c4a-c50b-5c32-a133-05a6027c2071','de012bda-f01c-51ea-956e-25ceda9d7a6e','Dinner at Ichiran',9000,'JPY','e612ead9-452e-5b10-aada-ae98d89592f4','2026-04-29','{"amounts":[{"amount":"3000","memberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0"},{"amount":"2500","memberId":"57374ad7-f911-4c73-ad23-98fca78da80b"},{"amount":"2000","memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4"},{"amount":"1500","memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe"}],"mode":"exact"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,2,1795452717101,1795452717287);
INSERT INTO expenses VALUES('5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67','de012bda-f01c-51ea-956e-25ceda9d7a6e','Pocket wifi',10000,'USD','d525f5ce-fe48-55ff-a8a4-41f17e176a4e','2026-04-28','{"mode":"percent","percents":[{"memberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0","percent":"33.33"},{"memberId":"57374ad7-f911-4c73-ad23-98fca78da80b","percent":"33.33"},{"memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4","percent":"33.34"}]}',NULL,NULL,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7',0,1,1795452717110,1795452717110);
INSERT INTO expenses VALUES('32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1','de012bda-f01c-51ea-956e-25ceda9d7a6e','Izakaya night',24001,'JPY','e612ead9-452e-5b10-aada-ae98d89592f4','2026-04-30','{"mode":"shares","shares":[{"memberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0","shares":"1.5"},{"memberId":"57374ad7-f911-4c73-ad23-98fca78da80b","shares":"1"},{"memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4","shares":"2.25"},{"memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe","shares":"0.75"}]}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,1,1795452717118,1795452717118);
INSERT INTO expenses VALUES('ca12702f-ea22-5770-8425-7c99aff8cad3','de012bda-f01c-51ea-956e-25ceda9d7a6e','Taxi to KLIA',10000,'MYR','0d2f7404-f335-5b83-961e-51ecb541a421','2026-04-28','{"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,3,1795452717126,1795452717302);
INSERT INTO expenses VALUES('aff10ad9-17e6-5c5d-91a1-56eae5f2be6d','de012bda-f01c-51ea-956e-25ceda9d7a6e','Sushi omakase',18000,'JPY','e612ead9-452e-5b10-aada-ae98d89592f4','2026-05-01','{"adjustments":[{"amount":"1500","memberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0"},{"amount":"-1000","memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe"}],"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"adjustment"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,1,1795452717134,1795452717134);
INSERT INTO expenses VALUES('7ccb1ee4-0211-5726-a16b-f48e7e49e270','de012bda-f01c-51ea-956e-25ceda9d7a6e','Konbini run',5640,'JPY','cc3a491c-44ef-5bee-9f49-f1fcbddae573','2026-05-01','{"extras":[{"amount":"540","description":"Tax"},{"amount":"-300","description":"Coupon"}],"items":[{"amount":"3000","description":"Beer","split":{"memberIds":["57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}},{"amount":"2400","description":"Fruit","split":{"mode":"shares","shares":[{"memberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0","shares":"1"},{"memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe","shares":"2"}]}}],"mode":"itemized"}',NULL,NULL,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7',0,1,1795452717141,1795452717141);
INSERT INTO expenses VALUES('723e1d40-0b74-5d23-858c-99c30bd8dcf6','de012bda-f01c-51ea-956e-25ceda9d7a6e','Shinkansen Tokyo–Osaka',44000,'JPY','501de63a-fbc1-5107-a85f-08712b96cf6c','2026-05-02','{"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"equal"}',132050,'MYR','32117117-86ad-4eca-ba25-0891c88d62dd',0,1,1795452717148,1795452717148);
INSERT INTO expenses VALUES('1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca','de012bda-f01c-51ea-956e-25ceda9d7a6e','Gift for our host',5000,'USD','85c02764-eaac-5fd3-8ee0-74d4f10d062c','2026-05-02','{"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,1,1795452717156,1795452717156);
INSERT INTO expenses VALUES('7068ab57-ca0e-5f7f-bffa-6eeeec8ce782','de012bda-f01c-51ea-956e-25ceda9d7a6e','Onsen day pass',7500,'JPY','d525f5ce-fe48-55ff-a8a4-41f17e176a4e','2026-05-03','{"adjustments":[{"amount":"-500","memberId":"57374ad7-f911-4c73-ad23-98fca78da80b"}],"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"adjustment"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,3,1795452717164,1795452717246);
INSERT INTO expenses VALUES('8ebd5024-5fb0-5776-9772-4d12c2ee69a1','de012bda-f01c-51ea-956e-25ceda9d7a6e','Taxi to KLIA (entered twice)',4500,'MYR','0d2f7404-f335-5b83-961e-51ecb541a421','2026-04-28','{"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',1,2,1795452717172,1795452717255);
INSERT INTO expenses VALUES('340ab8d1-16f5-553a-9fa5-e5f1a506b3a4','de012bda-f01c-51ea-956e-25ceda9d7a6e','Karaoke',12000,'JPY','d525f5ce-fe48-55ff-a8a4-41f17e176a4e','2026-05-03','{"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"equal"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,3,1795452717179,1795452717269);
INSERT INTO expenses VALUES('3121b339-1d2f-5b7f-a210-866598f57394','de012bda-f01c-51ea-956e-25ceda9d7a6e','Coffee',1000,'USD','e612ead9-452e-5b10-aada-ae98d89592f4','2026-05-03','{"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}',NULL,NULL,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7',0,1,1795452717188,1795452717188);
INSERT INTO expenses VALUES('16af9374-2310-5da4-9c57-e22321f66025','de012bda-f01c-51ea-956e-25ceda9d7a6e','Museum tickets',6667,'MYR','e51c7851-42ea-5516-97f9-23f58ec2f3d7','2026-04-27','{"mode":"percent","percents":[{"memberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0","percent":"12.5"},{"memberId":"57374ad7-f911-4c73-ad23-98fca78da80b","percent":"37.5"},{"memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4","percent":"25"},{"memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe","percent":"25"}]}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,1,1795452717196,1795452717196);
INSERT INTO expenses VALUES('a18aaa3d-e1b3-5b02-81a9-13efee02a731','de012bda-f01c-51ea-956e-25ceda9d7a6e','Ramen (seed shape)',3200,'JPY','e612ead9-452e-5b10-aada-ae98d89592f4','2026-05-04','{"amounts":[{"amount":"1100","memberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0"},{"amount":"2100","memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4"}],"mode":"exact"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,1,1795452717204,1795452717204);
INSERT INTO expenses VALUES('f19293ed-21e1-5cb9-b01d-a37d84d55c66','de012bda-f01c-51ea-956e-25ceda9d7a6e','KitKat souvenirs',3500,'JPY','85c02764-eaac-5fd3-8ee0-74d4f10d062c','2026-05-05','{"mode":"shares","shares":[{"memberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0","shares":"0.5"},{"memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4","shares":"1.25"}]}',NULL,NULL,'8af81505-a2b3-4309-9d21-712285d56e59',0,1,1795452717216,1795452717216);
INSERT INTO expenses VALUES('3a139d29-bc05-546d-ace3-8d190eeba666','de012bda-f01c-51ea-956e-25ceda9d7a6e','Ferry to Miyajima',1000,'JPY','0d2f7404-f335-5b83-961e-51ecb541a421','2026-05-05','{"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}',NULL,NULL,'8af81505-a2b3-4309-9d21-712285d56e59',0,1,1795452717224,1795452717224);
INSERT INTO expenses VALUES('db20c29f-4d36-5a0e-a9bb-fa4ab15004e3','14fd82f0-cdfa-506c-b703-81e6cbf5791d','Chilli crab',18000,'SGD','401c83fa-efbc-5357-b6be-3781d739228e','2026-06-13','{"memberIds":["1292ecdd-9156-41c4-bba0-36b92a7206e2","b13d0a4b-6a85-47a6-b9ab-6e598e433e07"],"mode":"equal"}',NULL,NULL,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7',0,1,1795452717373,1795452717373);
INSERT INTO expenses VALUES('4ff5d128-008c-584c-9b3e-79496949688c','14fd82f0-cdfa-506c-b703-81e6cbf5791d','Hawker centre',2340,'SGD','401c83fa-efbc-5357-b6be-3781d739228e','2026-06-14','{"amounts":[{"amount":"10.20","memberId":"1292ecdd-9156-41c4-bba0-36b92a7206e2"},{"amount":"13.20","memberId":"b13d0a4b-6a85-47a6-b9ab-6e598e433e07"}],"mode":"exact"}',NULL,NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',0,1,1795452717381,1795452717381);
CREATE TABLE expense_payers (
    expense_id TEXT NOT NULL REFERENCES expenses (id),
    member_id TEXT NOT NULL REFERENCES members (id),
    amount BIGINT NOT NULL CHECK (amount > 0),
    PRIMARY KEY (expense_id, member_id)
);
INSERT INTO expense_payers VALUES('24374f8e-070d-548a-b049-1c7e2adb91ae','fb8025ea-af9b-4b44-95e8-90b30a945ed0',240000);
INSERT INTO expense_payers VALUES('121a73fc-1259-58b4-8c80-b36de6f034f0','57374ad7-f911-4c73-ad23-98fca78da80b',40000);
INSERT INTO expense_payers VALUES('121a73fc-1259-58b4-8c80-b36de6f034f0','fb8025ea-af9b-4b44-95e8-90b30a945ed0',60000);
INSERT INTO expense_payers VALUES('467f7c4a-c50b-5c32-a133-05a6027c2071','fb8025ea-af9b-4b44-95e8-90b30a945ed0',9000);
INSERT INTO expense_payers VALUES('5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67','57374ad7-f911-4c73-ad23-98fca78da80b',10000);
INSERT INTO expense_payers VALUES('32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1','19357307-6a1e-57db-b8e3-b603ef232ad4',24001);
INSERT INTO expense_payers VALUES('ca12702f-ea22-5770-8425-7c99aff8cad3','e6b68adb-5b9a-5058-a391-c875441a07fe',10000);
INSERT INTO expense_payers VALUES('aff10ad9-17e6-5c5d-91a1-56eae5f2be6d','fb8025ea-af9b-4b44-95e8-90b30a945ed0',18000);
INSERT INTO expense_payers VALUES('7ccb1ee4-0211-5726-a16b-f48e7e49e270','57374ad7-f911-4c73-ad23-98fca78da80b',5640);
INSERT INTO expense_payers VALUES('723e1d40-0b74-5d23-858c-99c30bd8dcf6','fb8025ea-af9b-4b44-95e8-90b30a945ed0',44000);
INSERT INTO expense_payers VALUES('1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca','e6b68adb-5b9a-5058-a391-c875441a07fe',5000);
INSERT INTO expense_payers VALUES('8ebd5024-5fb0-5776-9772-4d12c2ee69a1','e6b68adb-5b9a-5058-a391-c875441a07fe',4500);
INSERT INTO expense_payers VALUES('340ab8d1-16f5-553a-9fa5-e5f1a506b3a4','57374ad7-f911-4c73-ad23-98fca78da80b',12000);
INSERT INTO expense_payers VALUES('3121b339-1d2f-5b7f-a210-866598f57394','57374ad7-f911-4c73-ad23-98fca78da80b',1000);
INSERT INTO expense_payers VALUES('16af9374-2310-5da4-9c57-e22321f66025','fb8025ea-af9b-4b44-95e8-90b30a945ed0',6667);
INSERT INTO expense_payers VALUES('a18aaa3d-e1b3-5b02-81a9-13efee02a731','19357307-6a1e-57db-b8e3-b603ef232ad4',3200);
INSERT INTO expense_payers VALUES('f19293ed-21e1-5cb9-b01d-a37d84d55c66','19357307-6a1e-57db-b8e3-b603ef232ad4',3500);
INSERT INTO expense_payers VALUES('3a139d29-bc05-546d-ace3-8d190eeba666','19357307-6a1e-57db-b8e3-b603ef232ad4',700);
INSERT INTO expense_payers VALUES('3a139d29-bc05-546d-ace3-8d190eeba666','e6b68adb-5b9a-5058-a391-c875441a07fe',300);
INSERT INTO expense_payers VALUES('7068ab57-ca0e-5f7f-bffa-6eeeec8ce782','fb8025ea-af9b-4b44-95e8-90b30a945ed0',7500);
INSERT INTO expense_payers VALUES('db20c29f-4d36-5a0e-a9bb-fa4ab15004e3','b13d0a4b-6a85-47a6-b9ab-6e598e433e07',18000);
INSERT INTO expense_payers VALUES('4ff5d128-008c-584c-9b3e-79496949688c','1292ecdd-9156-41c4-bba0-36b92a7206e2',2340);
CREATE TABLE expense_splits (
    id TEXT PRIMARY KEY,
    expense_id TEXT NOT NULL REFERENCES expenses (id),
    member_id TEXT NOT NULL REFERENCES members (id),
    amount BIGINT NOT NULL CHECK (amount >= 0),
    is_paid BOOLEAN NOT NULL DEFAULT FALSE,
    paid_at BIGINT,
    is_removed BOOLEAN NOT NULL DEFAULT FALSE,
    UNIQUE (expense_id, member_id)
);
INSERT INTO expense_splits VALUES('fbc0ca1d-8d70-46b3-99a4-dbec84c53562','24374f8e-070d-548a-b049-1c7e2adb91ae','19357307-6a1e-57db-b8e3-b603ef232ad4',60000,0,NULL,0);
INSERT INTO expense_splits VALUES('7d54fabc-0a72-454d-9ba8-a94390b5bbe7','24374f8e-070d-548a-b049-1c7e2adb91ae','57374ad7-f911-4c73-ad23-98fca78da80b',60000,1,1795452717308,0);
INSERT INTO expense_splits VALUES('d05606f6-70f6-4ccf-8346-598304659b24','24374f8e-070d-548a-b049-1c7e2adb91ae','e6b68adb-5b9a-5058-a391-c875441a07fe',60000,0,NULL,0);
INSERT INTO expense_splits VALUES('d1327fc8-0c35-4fc4-85f2-3596c31a4637','24374f8e-070d-548a-b049-1c7e2adb91ae','fb8025ea-af9b-4b44-95e8-90b30a945ed0',60000,0,NULL,0);
INSERT INTO expense_splits VALUES('cc99e0b3-68ce-4c3d-9dda-f38c2f78fce8','121a73fc-1259-58b4-8c80-b36de6f034f0','19357307-6a1e-57db-b8e3-b603ef232ad4',33334,0,NULL,0);
INSERT INTO expense_splits VALUES('15f79b4e-ce76-4d12-9284-8f707fe73cf9','121a73fc-1259-58b4-8c80-b36de6f034f0','57374ad7-f911-4c73-ad23-98fca78da80b',33333,0,NULL,0);
INSERT INTO expense_splits VALUES('9d09f18d-04e7-4ad1-908e-2f76bafba5ec','121a73fc-1259-58b4-8c80-b36de6f034f0','fb8025ea-af9b-4b44-95e8-90b30a945ed0',33333,0,NULL,0);
INSERT INTO expense_splits VALUES('0be5da21-d1fd-48b2-b0c6-99223a082e7a','467f7c4a-c50b-5c32-a133-05a6027c2071','19357307-6a1e-57db-b8e3-b603ef232ad4',2000,0,NULL,0);
INSERT INTO expense_splits VALUES('a9c4fc3b-cb89-4433-a8f3-6d30668cbcfe','467f7c4a-c50b-5c32-a133-05a6027c2071','57374ad7-f911-4c73-ad23-98fca78da80b',2500,1,1795452717287,0);
INSERT INTO expense_splits VALUES('113a310e-ca39-44ff-9e44-b94e003a7dc6','467f7c4a-c50b-5c32-a133-05a6027c2071','e6b68adb-5b9a-5058-a391-c875441a07fe',1500,0,NULL,0);
INSERT INTO expense_splits VALUES('d97b6300-02dd-40fe-8510-8f812f2cbed3','467f7c4a-c50b-5c32-a133-05a6027c2071','fb8025ea-af9b-4b44-95e8-90b30a945ed0',3000,0,NULL,0);
INSERT INTO expense_splits VALUES('6c85f2df-ce8c-4516-bae3-417f30adbe7b','5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67','19357307-6a1e-57db-b8e3-b603ef232ad4',3334,0,NULL,0);
INSERT INTO expense_splits VALUES('1ca7ddd2-bd3e-4c08-83ff-0e86518c07a8','5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67','57374ad7-f911-4c73-ad23-98fca78da80b',3333,0,NULL,0);
INSERT INTO expense_splits VALUES('b76e19f6-6346-4651-8f19-8271e3012ef0','5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67','fb8025ea-af9b-4b44-95e8-90b30a945ed0',3333,0,NULL,0);
INSERT INTO expense_splits VALUES('cdd23511-5f26-4cac-b8f7-75942c533bb5','32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1','19357307-6a1e-57db-b8e3-b603ef232ad4',9818,0,NULL,0);
INSERT INTO expense_splits VALUES('a90ed9dc-956a-401e-b29e-c6961db3adc9','32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1','57374ad7-f911-4c73-ad23-98fca78da80b',4364,0,NULL,0);
INSERT INTO expense_splits VALUES('14f6117d-a829-4782-9313-285f96a0e65c','32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1','e6b68adb-5b9a-5058-a391-c875441a07fe',3273,0,NULL,0);
INSERT INTO expense_splits VALUES('58a0dbfd-5bdc-463f-92fe-c2bddae31003','32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1','fb8025ea-af9b-4b44-95e8-90b30a945ed0',6546,0,NULL,0);
INSERT INTO expense_splits VALUES('41ddf6b0-4a22-495c-b7f7-7e0b77c145af','ca12702f-ea22-5770-8425-7c99aff8cad3','19357307-6a1e-57db-b8e3-b603ef232ad4',3334,0,NULL,0);
INSERT INTO expense_splits VALUES('702fe704-3a81-400b-abd5-9ec4127213fd','ca12702f-ea22-5770-8425-7c99aff8cad3','57374ad7-f911-4c73-ad23-98fca78da80b',3333,0,NULL,0);
INSERT INTO expense_splits VALUES('b2578b94-f978-4afe-96bd-2b7d57c1cba3','ca12702f-ea22-5770-8425-7c99aff8cad3','fb8025ea-af9b-4b44-95e8-90b30a945ed0',3333,0,NULL,0);
INSERT INTO expense_splits VALUES('c0c4fe95-73f7-47b4-9e39-a0285741bc88','aff10ad9-17e6-5c5d-91a1-56eae5f2be6d','19357307-6a1e-57db-b8e3-b603ef232ad4',4375,0,NULL,0);
INSERT INTO expense_splits VALUES('6f53eb08-0639-4007-95e0-25ab64fe22dd','aff10ad9-17e6-5c5d-91a1-56eae5f2be6d','57374ad7-f911-4c73-ad23-98fca78da80b',4375,0,NULL,0);
INSERT INTO expense_splits VALUES('0e32bae2-3960-4591-95c0-ab1aaa67651d','aff10ad9-17e6-5c5d-91a1-56eae5f2be6d','e6b68adb-5b9a-5058-a391-c875441a07fe',3375,0,NULL,0);
INSERT INTO expense_splits VALUES('6350145e-8cbe-429e-929d-78dccb7bd178','aff10ad9-17e6-5c5d-91a1-56eae5f2be6d','fb8025ea-af9b-4b44-95e8-90b30a945ed0',5875,0,NULL,0);
INSERT INTO expense_splits VALUES('3fdae36b-269f-4d10-87bf-7cc71285eb87','7ccb1ee4-0211-5726-a16b-f48e7e49e270','19357307-6a1e-57db-b8e3-b603ef232ad4',1567,0,NULL,0);
INSERT INTO expense_splits VALUES('70405e67-d0e3-4dc1-9c25-c89289145aac','7ccb1ee4-0211-5726-a16b-f48e7e49e270','57374ad7-f911-4c73-ad23-98fca78da80b',1567,0,NULL,0);
INSERT INTO expense_splits VALUES('d1ff7516-694f-4d16-a2b3-4dffc89ee043','7ccb1ee4-0211-5726-a16b-f48e7e49e270','e6b68adb-5b9a-5058-a391-c875441a07fe',1671,0,NULL,0);
INSERT INTO expense_splits VALUES('6c40bbce-c806-4c90-aa7f-a449b376ee78','7ccb1ee4-0211-5726-a16b-f48e7e49e270','fb8025ea-af9b-4b44-95e8-90b30a945ed0',835,0,NULL,0);
INSERT INTO expense_splits VALUES('3f2b4cab-09aa-463f-ab50-8e8e52cf2b09','723e1d40-0b74-5d23-858c-99c30bd8dcf6','19357307-6a1e-57db-b8e3-b603ef232ad4',11000,0,NULL,0);
INSERT INTO expense_splits VALUES('143ce123-8be3-48cf-8a96-4c79089f6236','723e1d40-0b74-5d23-858c-99c30bd8dcf6','57374ad7-f911-4c73-ad23-98fca78da80b',11000,0,NULL,0);
INSERT INTO expense_splits VALUES('6c5980c0-43d0-4ecd-bda9-c3261ae1e1c1','723e1d40-0b74-5d23-858c-99c30bd8dcf6','e6b68adb-5b9a-5058-a391-c875441a07fe',11000,0,NULL,0);
INSERT INTO expense_splits VALUES('d79af0f7-8485-4244-9a74-d207287d2d98','723e1d40-0b74-5d23-858c-99c30bd8dcf6','fb8025ea-af9b-4b44-95e8-90b30a945ed0',11000,0,NULL,0);
INSERT INTO expense_splits VALUES('d49f3df1-f90f-483f-8133-ce88e837f009','1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca','19357307-6a1e-57db-b8e3-b603ef232ad4',1667,0,NULL,0);
INSERT INTO expense_splits VALUES('d51b6c70-de18-4aa4-94d5-219404c2367f','1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca','57374ad7-f911-4c73-ad23-98fca78da80b',1666,0,NULL,0);
INSERT INTO expense_splits VALUES('fbeecdf3-1e63-4c16-ae95-c2af5d1f1815','1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca','fb8025ea-af9b-4b44-95e8-90b30a945ed0',1667,0,NULL,0);
INSERT INTO expense_splits VALUES('aac12eab-809b-4e9c-8428-351b67c05c24','7068ab57-ca0e-5f7f-bffa-6eeeec8ce782','19357307-6a1e-57db-b8e3-b603ef232ad4',2000,0,NULL,0);
INSERT INTO expense_splits VALUES('dd611425-1d91-41de-8af8-2ba3e5d22475','7068ab57-ca0e-5f7f-bffa-6eeeec8ce782','57374ad7-f911-4c73-ad23-98fca78da80b',1500,0,NULL,0);
INSERT INTO expense_splits VALUES('fcabce13-c63c-4b6d-a4be-d6a879114096','7068ab57-ca0e-5f7f-bffa-6eeeec8ce782','e6b68adb-5b9a-5058-a391-c875441a07fe',2000,0,NULL,0);
INSERT INTO expense_splits VALUES('dd1bd1a2-eed5-4c71-ad5c-faebd3694ef2','7068ab57-ca0e-5f7f-bffa-6eeeec8ce782','fb8025ea-af9b-4b44-95e8-90b30a945ed0',2000,0,NULL,0);
INSERT INTO expense_splits VALUES('f7dc26c6-232a-43ff-9450-7496c10150ad','8ebd5024-5fb0-5776-9772-4d12c2ee69a1','19357307-6a1e-57db-b8e3-b603ef232ad4',1500,0,NULL,0);
INSERT INTO expense_splits VALUES('15c5ef2a-45d5-4654-b440-8177a2584b66','8ebd5024-5fb0-5776-9772-4d12c2ee69a1','57374ad7-f911-4c73-ad23-98fca78da80b',1500,0,NULL,0);
INSERT INTO expense_splits VALUES('a3c82fd7-eaa4-4742-aac3-f4b5e9300428','8ebd5024-5fb0-5776-9772-4d12c2ee69a1','fb8025ea-af9b-4b44-95e8-90b30a945ed0',1500,0,NULL,0);
INSERT INTO expense_splits VALUES('aabe92eb-30e5-4179-9a19-ed0078447f1d','340ab8d1-16f5-553a-9fa5-e5f1a506b3a4','19357307-6a1e-57db-b8e3-b603ef232ad4',3000,0,NULL,0);
INSERT INTO expense_splits VALUES('3ab74ab6-d2a2-45aa-8308-377eace9be4f','340ab8d1-16f5-553a-9fa5-e5f1a506b3a4','57374ad7-f911-4c73-ad23-98fca78da80b',3000,0,NULL,0);
INSERT INTO expense_splits VALUES('a786f589-18e5-4bfe-8477-0b968db02149','340ab8d1-16f5-553a-9fa5-e5f1a506b3a4','e6b68adb-5b9a-5058-a391-c875441a07fe',3000,0,NULL,0);
INSERT INTO expense_splits VALUES('ce2e95b8-f564-45fb-a63a-e864194714f8','340ab8d1-16f5-553a-9fa5-e5f1a506b3a4','fb8025ea-af9b-4b44-95e8-90b30a945ed0',3000,0,NULL,0);
INSERT INTO expense_splits VALUES('379ddc9e-456e-45d8-96ef-3caf40eb2bd9','3121b339-1d2f-5b7f-a210-866598f57394','19357307-6a1e-57db-b8e3-b603ef232ad4',333,0,NULL,0);
INSERT INTO expense_splits VALUES('fbb958dc-c1f8-4b41-bccc-fa02dc2145d9','3121b339-1d2f-5b7f-a210-866598f57394','57374ad7-f911-4c73-ad23-98fca78da80b',333,0,NULL,0);
INSERT INTO expense_splits VALUES('229eab85-f8cf-438f-b9ee-e15fe5a7cf76','3121b339-1d2f-5b7f-a210-866598f57394','fb8025ea-af9b-4b44-95e8-90b30a945ed0',334,0,NULL,0);
INSERT INTO expense_splits VALUES('4ba653e7-4341-494a-a442-67a17c1e9472','16af9374-2310-5da4-9c57-e22321f66025','19357307-6a1e-57db-b8e3-b603ef232ad4',1667,0,NULL,0);
INSERT INTO expense_splits VALUES('05068252-180b-40fb-acf2-978d65df60d7','16af9374-2310-5da4-9c57-e22321f66025','57374ad7-f911-4c73-ad23-98fca78da80b',2500,0,NULL,0);
INSERT INTO expense_splits VALUES('d47f71dc-6a0d-45a1-b661-70fa0b7e8a8e','16af9374-2310-5da4-9c57-e22321f66025','e6b68adb-5b9a-5058-a391-c875441a07fe',1667,0,NULL,0);
INSERT INTO expense_splits VALUES('7642ea9f-36d9-421a-b4ba-d8e2539bb220','16af9374-2310-5da4-9c57-e22321f66025','fb8025ea-af9b-4b44-95e8-90b30a945ed0',833,0,NULL,0);
INSERT INTO expense_splits VALUES('fe6d42b6-acbd-485b-83b5-e19eea25c639','a18aaa3d-e1b3-5b02-81a9-13efee02a731','19357307-6a1e-57db-b8e3-b603ef232ad4',2100,0,NULL,0);
INSERT INTO expense_splits VALUES('d72502c2-5b20-47cf-8936-2f94f7943fe6','a18aaa3d-e1b3-5b02-81a9-13efee02a731','fb8025ea-af9b-4b44-95e8-90b30a945ed0',1100,0,NULL,0);
INSERT INTO expense_splits VALUES('9083785c-1980-4692-a14f-868d3fc2cd2b','f19293ed-21e1-5cb9-b01d-a37d84d55c66','19357307-6a1e-57db-b8e3-b603ef232ad4',2500,0,NULL,0);
INSERT INTO expense_splits VALUES('845dc24b-a683-4474-a04f-9e177267d07d','f19293ed-21e1-5cb9-b01d-a37d84d55c66','fb8025ea-af9b-4b44-95e8-90b30a945ed0',1000,0,NULL,0);
INSERT INTO expense_splits VALUES('067268b9-270e-479f-8972-29138858ab20','3a139d29-bc05-546d-ace3-8d190eeba666','19357307-6a1e-57db-b8e3-b603ef232ad4',334,0,NULL,0);
INSERT INTO expense_splits VALUES('ce218306-f94e-4406-9d8d-bbb59e281bda','3a139d29-bc05-546d-ace3-8d190eeba666','57374ad7-f911-4c73-ad23-98fca78da80b',333,0,NULL,0);
INSERT INTO expense_splits VALUES('e3d2192f-34d7-485a-971a-0d181e1e69bf','3a139d29-bc05-546d-ace3-8d190eeba666','fb8025ea-af9b-4b44-95e8-90b30a945ed0',333,0,NULL,0);
INSERT INTO expense_splits VALUES('59e6d655-71f0-4a46-b0e2-8724cdd5458b','db20c29f-4d36-5a0e-a9bb-fa4ab15004e3','1292ecdd-9156-41c4-bba0-36b92a7206e2',9000,0,NULL,0);
INSERT INTO expense_splits VALUES('75d79385-c3bf-48af-82ac-71c88a7a2301','db20c29f-4d36-5a0e-a9bb-fa4ab15004e3','b13d0a4b-6a85-47a6-b9ab-6e598e433e07',9000,0,NULL,0);
INSERT INTO expense_splits VALUES('7f6e157b-b3a2-4741-b9a7-4cd58ac531bd','4ff5d128-008c-584c-9b3e-79496949688c','1292ecdd-9156-41c4-bba0-36b92a7206e2',1020,0,NULL,0);
INSERT INTO expense_splits VALUES('d64a7685-0b75-4aa6-ae7f-8a5d4cb2ad19','4ff5d128-008c-584c-9b3e-79496949688c','b13d0a4b-6a85-47a6-b9ab-6e598e433e07',1320,0,NULL,0);
CREATE TABLE settlements (
    id TEXT PRIMARY KEY,
    group_id TEXT NOT NULL REFERENCES groups (id),
    from_member_id TEXT NOT NULL REFERENCES members (id),
    to_member_id TEXT NOT NULL REFERENCES members (id),
    amount BIGINT NOT NULL CHECK (amount > 0),
    currency TEXT NOT NULL CHECK (length(currency) = 3),
    settled_on TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    expense_split_id TEXT REFERENCES expense_splits (id),
    created_by_user_id TEXT NOT NULL REFERENCES users (id),
    is_deleted BOOLEAN NOT NULL DEFAULT FALSE,
    version BIGINT NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CHECK (from_member_id <> to_member_id)
);
INSERT INTO settlements VALUES('b11b04b6-19f2-4b56-bd82-3a3337b07e2f','de012bda-f01c-51ea-956e-25ceda9d7a6e','57374ad7-f911-4c73-ad23-98fca78da80b','fb8025ea-af9b-4b44-95e8-90b30a945ed0',2500,'JPY','2026-11-23','Share of Dinner at Ichiran','a9c4fc3b-cb89-4433-a8f3-6d30668cbcfe','32117117-86ad-4eca-ba25-0891c88d62dd',0,1,1795452717287,1795452717287);
INSERT INTO settlements VALUES('2f7588fa-3d02-45b1-9387-8bbb89f852b9','de012bda-f01c-51ea-956e-25ceda9d7a6e','19357307-6a1e-57db-b8e3-b603ef232ad4','e6b68adb-5b9a-5058-a391-c875441a07fe',3334,'MYR','2026-11-23','Share of Taxi to KLIA','41ddf6b0-4a22-495c-b7f7-7e0b77c145af','32117117-86ad-4eca-ba25-0891c88d62dd',1,2,1795452717295,1795452717302);
INSERT INTO settlements VALUES('dac3f12c-f5e0-48ae-a21a-a087a1e7126e','de012bda-f01c-51ea-956e-25ceda9d7a6e','57374ad7-f911-4c73-ad23-98fca78da80b','fb8025ea-af9b-4b44-95e8-90b30a945ed0',60000,'MYR','2026-11-23','Share of Flights KUL–NRT','7d54fabc-0a72-454d-9ba8-a94390b5bbe7','f615d7ea-fa33-40e4-848b-7ebe9f513ba7',0,1,1795452717308,1795452717308);
INSERT INTO settlements VALUES('c6604a33-fb0e-55ee-b0c5-e30ab840952a','de012bda-f01c-51ea-956e-25ceda9d7a6e','57374ad7-f911-4c73-ad23-98fca78da80b','fb8025ea-af9b-4b44-95e8-90b30a945ed0',20000,'MYR','2026-05-06','Bank transfer',NULL,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7',0,1,1795452717315,1795452717315);
INSERT INTO settlements VALUES('3949d9a8-bd58-57d6-a9ba-b27623117752','de012bda-f01c-51ea-956e-25ceda9d7a6e','19357307-6a1e-57db-b8e3-b603ef232ad4','fb8025ea-af9b-4b44-95e8-90b30a945ed0',5000,'JPY','2026-05-06','Cash (recorded by mistake)',NULL,'32117117-86ad-4eca-ba25-0891c88d62dd',1,2,1795452717322,1795452717328);
CREATE TABLE balances (
    group_id TEXT NOT NULL REFERENCES groups (id),
    member_id TEXT NOT NULL REFERENCES members (id),
    currency TEXT NOT NULL,
    net BIGINT NOT NULL,
    PRIMARY KEY (group_id, member_id, currency)
);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','19357307-6a1e-57db-b8e3-b603ef232ad4','MYR',-65001);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','57374ad7-f911-4c73-ad23-98fca78da80b','MYR',14167);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','e6b68adb-5b9a-5058-a391-c875441a07fe','MYR',-51667);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','fb8025ea-af9b-4b44-95e8-90b30a945ed0','MYR',102501);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','19357307-6a1e-57db-b8e3-b603ef232ad4','JPY',-40627);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','57374ad7-f911-4c73-ad23-98fca78da80b','JPY',-1832);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','fb8025ea-af9b-4b44-95e8-90b30a945ed0','JPY',67978);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','e6b68adb-5b9a-5058-a391-c875441a07fe','JPY',-25519);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','19357307-6a1e-57db-b8e3-b603ef232ad4','USD',-5334);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','57374ad7-f911-4c73-ad23-98fca78da80b','USD',5668);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','fb8025ea-af9b-4b44-95e8-90b30a945ed0','USD',-5334);
INSERT INTO balances VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','e6b68adb-5b9a-5058-a391-c875441a07fe','USD',5000);
INSERT INTO balances VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','1292ecdd-9156-41c4-bba0-36b92a7206e2','SGD',-7680);
INSERT INTO balances VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','b13d0a4b-6a85-47a6-b9ab-6e598e433e07','SGD',7680);
CREATE TABLE payment_history (
    id TEXT PRIMARY KEY,
    expense_split_id TEXT NOT NULL REFERENCES expense_splits (id),
    action TEXT NOT NULL CHECK (action IN ('marked_paid', 'marked_unpaid')),
    performed_by_user_id TEXT NOT NULL REFERENCES users (id),
    performed_by_name TEXT NOT NULL,
    performed_at BIGINT NOT NULL,
    -- The group's change number: orders marks made within one millisecond.
    seq BIGINT NOT NULL,
    reason TEXT,
    ip_address TEXT,
    device_info TEXT
);
INSERT INTO payment_history VALUES('e07b0248-c4e6-42a7-b38d-a528f4b34ea8','a9c4fc3b-cb89-4433-a8f3-6d30668cbcfe','marked_paid','32117117-86ad-4eca-ba25-0891c88d62dd','Aki',1795452717287,36,'Paid in cash at the counter','127.0.0.1','make-upgrade-fixture');
INSERT INTO payment_history VALUES('e978ba43-d4ad-4dec-b06c-d15ae2caba38','41ddf6b0-4a22-495c-b7f7-7e0b77c145af','marked_paid','32117117-86ad-4eca-ba25-0891c88d62dd','Aki',1795452717295,37,'Bank transfer','127.0.0.1','make-upgrade-fixture');
INSERT INTO payment_history VALUES('d08fb3eb-837c-47f8-9fe9-ba6a9fc994c7','41ddf6b0-4a22-495c-b7f7-7e0b77c145af','marked_unpaid','32117117-86ad-4eca-ba25-0891c88d62dd','Aki',1795452717302,38,'Wrong person: it was Bo who paid','127.0.0.1','make-upgrade-fixture');
INSERT INTO payment_history VALUES('f923d14f-91a4-47dc-88c9-f80a63720e4b','7d54fabc-0a72-454d-9ba8-a94390b5bbe7','marked_paid','f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo',1795452717308,39,'DuitNow transfer','127.0.0.1','make-upgrade-fixture');
CREATE TABLE activity (
    id TEXT PRIMARY KEY,
    group_id TEXT NOT NULL REFERENCES groups (id),
    seq BIGINT NOT NULL,
    actor_user_id TEXT,
    actor_name TEXT NOT NULL DEFAULT '',
    action TEXT NOT NULL,
    entity TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    summary TEXT NOT NULL,
    at BIGINT NOT NULL
);
INSERT INTO activity VALUES('dfcae075-1b7d-4388-a261-c8f66244d8d2','de012bda-f01c-51ea-956e-25ceda9d7a6e',1,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','group.created','group','de012bda-f01c-51ea-956e-25ceda9d7a6e','Aki created Japan 2026 🗾',1795452717024);
INSERT INTO activity VALUES('224e0e86-72a0-47ca-9a9d-dcaa1ac3e172','de012bda-f01c-51ea-956e-25ceda9d7a6e',2,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','member.added','member','19357307-6a1e-57db-b8e3-b603ef232ad4','Aki added Chen',1795452717032);
INSERT INTO activity VALUES('0445642b-6bb6-4278-bc6f-64c6ee64c68b','de012bda-f01c-51ea-956e-25ceda9d7a6e',3,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','member.added','member','e6b68adb-5b9a-5058-a391-c875441a07fe','Aki added Dee',1795452717038);
INSERT INTO activity VALUES('cc278c58-0489-4d07-af7f-814444cc5646','de012bda-f01c-51ea-956e-25ceda9d7a6e',4,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','member.added','member','a2e9431e-a00f-5fc7-a77d-3e505eb8ba3b','Aki added Eve',1795452717043);
INSERT INTO activity VALUES('b4c0f557-c2f5-41df-90fc-00c390e54f8e','de012bda-f01c-51ea-956e-25ceda9d7a6e',5,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo','member.joined','member','57374ad7-f911-4c73-ad23-98fca78da80b','Bo joined',1795452717047);
INSERT INTO activity VALUES('86a6ea9b-9088-4fee-8d35-0a373e12ad45','de012bda-f01c-51ea-956e-25ceda9d7a6e',6,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','category.created','category','85c02764-eaac-5fd3-8ee0-74d4f10d062c','Aki added category Souvenirs',1795452717056);
INSERT INTO activity VALUES('fbd0a97d-4a23-44f4-9449-b3cf4e958fa9','de012bda-f01c-51ea-956e-25ceda9d7a6e',7,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','category.created','category','cc3a491c-44ef-5bee-9f49-f1fcbddae573','Aki added category Snacks',1795452717061);
INSERT INTO activity VALUES('f90567a0-c341-4948-a1be-d72e7ed8e67a','de012bda-f01c-51ea-956e-25ceda9d7a6e',8,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','category.created','category','501de63a-fbc1-5107-a85f-08712b96cf6c','Aki added category Day trips',1795452717066);
INSERT INTO activity VALUES('953cb9bd-13ee-43db-9210-c34e0c4a1bfc','de012bda-f01c-51ea-956e-25ceda9d7a6e',9,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','rates.updated','group','de012bda-f01c-51ea-956e-25ceda9d7a6e','Aki set 3 exchange rate(s)',1795452717072);
INSERT INTO activity VALUES('d3f458d8-f094-467a-84d7-b806e410c89a','de012bda-f01c-51ea-956e-25ceda9d7a6e',10,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','24374f8e-070d-548a-b049-1c7e2adb91ae','Aki added Flights KUL–NRT (2,400.00 MYR)',1795452717080);
INSERT INTO activity VALUES('8612d1c4-9721-423a-8fbf-6e5c63404419','de012bda-f01c-51ea-956e-25ceda9d7a6e',11,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','121a73fc-1259-58b4-8c80-b36de6f034f0','Aki added Hotel Shinjuku, 3 nights (100,000 JPY)',1795452717092);
INSERT INTO activity VALUES('99fdc589-775f-4c18-b38e-cbd2e6d2a1c6','de012bda-f01c-51ea-956e-25ceda9d7a6e',12,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','467f7c4a-c50b-5c32-a133-05a6027c2071','Aki added Dinner at Ichiran (9,000 JPY)',1795452717101);
INSERT INTO activity VALUES('112df839-fada-435b-9aa9-24cf7bb780e2','de012bda-f01c-51ea-956e-25ceda9d7a6e',13,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo','expense.created','expense','5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67','Bo added Pocket wifi (100.00 USD)',1795452717110);
INSERT INTO activity VALUES('d3917d56-453e-4b8f-974e-bd65e23fd9de','de012bda-f01c-51ea-956e-25ceda9d7a6e',14,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1','Aki added Izakaya night (24,001 JPY)',1795452717118);
INSERT INTO activity VALUES('c9a5728a-57ec-4d7e-977b-19ce1e9f3e33','de012bda-f01c-51ea-956e-25ceda9d7a6e',15,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','ca12702f-ea22-5770-8425-7c99aff8cad3','Aki added Taxi to KLIA (100.00 MYR)',1795452717126);
INSERT INTO activity VALUES('4ab04b6a-0a69-4a14-bd0a-2ef9447419f7','de012bda-f01c-51ea-956e-25ceda9d7a6e',16,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','aff10ad9-17e6-5c5d-91a1-56eae5f2be6d','Aki added Sushi omakase (18,000 JPY)',1795452717134);
INSERT INTO activity VALUES('b78886a1-a7fe-4908-aa7a-54ee4fc73bbb','de012bda-f01c-51ea-956e-25ceda9d7a6e',17,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo','expense.created','expense','7ccb1ee4-0211-5726-a16b-f48e7e49e270','Bo added Konbini run (5,640 JPY)',1795452717141);
INSERT INTO activity VALUES('8ec4c1a6-7643-4df5-8cdd-0b471aa30698','de012bda-f01c-51ea-956e-25ceda9d7a6e',18,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','723e1d40-0b74-5d23-858c-99c30bd8dcf6','Aki added Shinkansen Tokyo–Osaka (44,000 JPY)',1795452717148);
INSERT INTO activity VALUES('072ddc26-e588-42ba-8d9a-4d0773d6c192','de012bda-f01c-51ea-956e-25ceda9d7a6e',19,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca','Aki added Gift for our host (50.00 USD)',1795452717156);
INSERT INTO activity VALUES('686e8f30-85c7-4059-bf5b-06bd4f3e9bd0','de012bda-f01c-51ea-956e-25ceda9d7a6e',20,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','7068ab57-ca0e-5f7f-bffa-6eeeec8ce782','Aki added Onsen (6,000 JPY)',1795452717164);
INSERT INTO activity VALUES('fcd9de32-e11a-4773-9a99-fc6734f39757','de012bda-f01c-51ea-956e-25ceda9d7a6e',21,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','8ebd5024-5fb0-5776-9772-4d12c2ee69a1','Aki added Taxi to KLIA (entered twice) (45.00 MYR)',1795452717172);
INSERT INTO activity VALUES('b8f5ef81-500a-4ad7-9529-28d6b97d5a13','de012bda-f01c-51ea-956e-25ceda9d7a6e',22,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','340ab8d1-16f5-553a-9fa5-e5f1a506b3a4','Aki added Karaoke (12,000 JPY)',1795452717179);
INSERT INTO activity VALUES('1bd35de4-d819-4934-a2f7-fbe2af3470f9','de012bda-f01c-51ea-956e-25ceda9d7a6e',23,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo','expense.created','expense','3121b339-1d2f-5b7f-a210-866598f57394','Bo added Coffee (10.00 USD)',1795452717188);
INSERT INTO activity VALUES('659f8314-5e39-404c-92cb-69e2a22f2820','de012bda-f01c-51ea-956e-25ceda9d7a6e',24,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','16af9374-2310-5da4-9c57-e22321f66025','Aki added Museum tickets (66.67 MYR)',1795452717196);
INSERT INTO activity VALUES('fbf974d4-ee25-4e27-bb70-b466f323e5c2','de012bda-f01c-51ea-956e-25ceda9d7a6e',25,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','a18aaa3d-e1b3-5b02-81a9-13efee02a731','Aki added Ramen (seed shape) (3,200 JPY)',1795452717204);
INSERT INTO activity VALUES('c96be64c-254f-4cde-b134-9fa7257d9828','de012bda-f01c-51ea-956e-25ceda9d7a6e',26,'8af81505-a2b3-4309-9d21-712285d56e59','Chen Wei','member.joined','member','19357307-6a1e-57db-b8e3-b603ef232ad4','Chen Wei joined as Chen',1795452717211);
INSERT INTO activity VALUES('3238484f-7b58-44a9-8abb-4cfb0844cc0a','de012bda-f01c-51ea-956e-25ceda9d7a6e',27,'8af81505-a2b3-4309-9d21-712285d56e59','Chen','expense.created','expense','f19293ed-21e1-5cb9-b01d-a37d84d55c66','Chen added KitKat souvenirs (3,500 JPY)',1795452717216);
INSERT INTO activity VALUES('d954886b-7708-4487-8fe4-656fcce098e5','de012bda-f01c-51ea-956e-25ceda9d7a6e',28,'8af81505-a2b3-4309-9d21-712285d56e59','Chen','expense.created','expense','3a139d29-bc05-546d-ace3-8d190eeba666','Chen added Ferry to Miyajima (1,000 JPY)',1795452717224);
INSERT INTO activity VALUES('bb9c45ee-869c-4951-aee3-02e8a1b8412c','de012bda-f01c-51ea-956e-25ceda9d7a6e',29,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.updated','expense','7068ab57-ca0e-5f7f-bffa-6eeeec8ce782','Aki changed Onsen day pass (7,500 JPY)',1795452717236);
INSERT INTO activity VALUES('f259b5bd-9730-47d3-bee1-a900d96a389e','de012bda-f01c-51ea-956e-25ceda9d7a6e',30,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.updated','expense','7068ab57-ca0e-5f7f-bffa-6eeeec8ce782','Aki changed Onsen day pass (7,500 JPY)',1795452717246);
INSERT INTO activity VALUES('ff580540-ec32-47d9-8a08-5bdfa42cbbd6','de012bda-f01c-51ea-956e-25ceda9d7a6e',31,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.deleted','expense','8ebd5024-5fb0-5776-9772-4d12c2ee69a1','Aki deleted Taxi to KLIA (entered twice)',1795452717255);
INSERT INTO activity VALUES('d170ca3c-471f-4452-bd6b-2b650a0a245c','de012bda-f01c-51ea-956e-25ceda9d7a6e',32,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.deleted','expense','340ab8d1-16f5-553a-9fa5-e5f1a506b3a4','Aki deleted Karaoke',1795452717262);
INSERT INTO activity VALUES('620edbb2-5f1d-4ad9-9387-1317100f9a3e','de012bda-f01c-51ea-956e-25ceda9d7a6e',33,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.restored','expense','340ab8d1-16f5-553a-9fa5-e5f1a506b3a4','Aki restored Karaoke',1795452717269);
INSERT INTO activity VALUES('f588710d-eae4-4266-a816-770e735c2395','de012bda-f01c-51ea-956e-25ceda9d7a6e',34,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','category.updated','category','cc3a491c-44ef-5bee-9f49-f1fcbddae573','Aki changed category Snacks & drinks',1795452717276);
INSERT INTO activity VALUES('dacbd979-71de-4e10-800f-89bcd4abfec6','de012bda-f01c-51ea-956e-25ceda9d7a6e',35,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','category.deleted','category','501de63a-fbc1-5107-a85f-08712b96cf6c','Aki deleted category Day trips',1795452717281);
INSERT INTO activity VALUES('7ab211f7-1c42-4497-84f1-dca9a804e698','de012bda-f01c-51ea-956e-25ceda9d7a6e',36,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','share.marked_paid','expense','467f7c4a-c50b-5c32-a133-05a6027c2071','Aki marked a share of Dinner at Ichiran paid',1795452717287);
INSERT INTO activity VALUES('c768853f-c1ae-4b0e-9559-a0b0f126de49','de012bda-f01c-51ea-956e-25ceda9d7a6e',37,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','share.marked_paid','expense','ca12702f-ea22-5770-8425-7c99aff8cad3','Aki marked a share of Taxi to KLIA paid',1795452717295);
INSERT INTO activity VALUES('14f8c8df-4a69-4101-8c5b-ce5fe3bc5ef0','de012bda-f01c-51ea-956e-25ceda9d7a6e',38,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','share.marked_unpaid','expense','ca12702f-ea22-5770-8425-7c99aff8cad3','Aki marked a share of Taxi to KLIA unpaid',1795452717302);
INSERT INTO activity VALUES('34c3bbe3-0740-4bab-806c-0738b397cf50','de012bda-f01c-51ea-956e-25ceda9d7a6e',39,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo','share.marked_paid','expense','24374f8e-070d-548a-b049-1c7e2adb91ae','Bo marked a share of Flights KUL–NRT paid',1795452717308);
INSERT INTO activity VALUES('f91451b2-50c1-4fab-bf59-5c885f3e7c6e','de012bda-f01c-51ea-956e-25ceda9d7a6e',40,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo','settlement.recorded','settlement','c6604a33-fb0e-55ee-b0c5-e30ab840952a','Bo recorded a transfer of 200.00 MYR',1795452717315);
INSERT INTO activity VALUES('a32a7330-2486-405e-8906-6c4c148c4cbd','de012bda-f01c-51ea-956e-25ceda9d7a6e',41,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','settlement.recorded','settlement','3949d9a8-bd58-57d6-a9ba-b27623117752','Aki recorded a transfer of 5,000 JPY',1795452717322);
INSERT INTO activity VALUES('dea9f4ef-2216-4774-8f65-52c571421c30','de012bda-f01c-51ea-956e-25ceda9d7a6e',42,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','settlement.deleted','settlement','3949d9a8-bd58-57d6-a9ba-b27623117752','Aki deleted a transfer of 5,000 JPY',1795452717328);
INSERT INTO activity VALUES('17f38381-b839-4488-8495-ab3de4a27da7','14fd82f0-cdfa-506c-b703-81e6cbf5791d',1,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo B.','group.created','group','14fd82f0-cdfa-506c-b703-81e6cbf5791d','Bo B. created Singapore weekend',1795452717362);
INSERT INTO activity VALUES('655844a4-b8d3-498d-a16c-e994a2c3a611','14fd82f0-cdfa-506c-b703-81e6cbf5791d',2,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','member.joined','member','1292ecdd-9156-41c4-bba0-36b92a7206e2','Aki joined',1795452717368);
INSERT INTO activity VALUES('fd138c35-e6fb-4b8f-8649-6fa46eb5a54e','14fd82f0-cdfa-506c-b703-81e6cbf5791d',3,'f615d7ea-fa33-40e4-848b-7ebe9f513ba7','Bo B.','expense.created','expense','db20c29f-4d36-5a0e-a9bb-fa4ab15004e3','Bo B. added Chilli crab (180.00 SGD)',1795452717373);
INSERT INTO activity VALUES('b565d91b-fa44-4bad-813a-4e22fc4fb3be','14fd82f0-cdfa-506c-b703-81e6cbf5791d',4,'32117117-86ad-4eca-ba25-0891c88d62dd','Aki','expense.created','expense','4ff5d128-008c-584c-9b3e-79496949688c','Aki added Hawker centre (23.40 SGD)',1795452717381);
CREATE TABLE changes (
    group_id TEXT NOT NULL REFERENCES groups (id),
    entity TEXT NOT NULL CHECK (entity IN ('group', 'member', 'category', 'expense', 'settlement')),
    entity_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    is_deleted BOOLEAN NOT NULL,
    PRIMARY KEY (group_id, entity, entity_id)
);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','group','de012bda-f01c-51ea-956e-25ceda9d7a6e',48,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','member','fb8025ea-af9b-4b44-95e8-90b30a945ed0',1,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','category','e612ead9-452e-5b10-aada-ae98d89592f4',1,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','category','0d2f7404-f335-5b83-961e-51ecb541a421',1,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','category','e51c7851-42ea-5516-97f9-23f58ec2f3d7',1,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','category','fbacbbc9-4226-5e93-999b-f731bc6dddd5',1,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','category','4c23468e-6a8b-5e69-ab6c-04833285541c',1,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','category','d525f5ce-fe48-55ff-a8a4-41f17e176a4e',1,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','member','19357307-6a1e-57db-b8e3-b603ef232ad4',44,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','member','e6b68adb-5b9a-5058-a391-c875441a07fe',45,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','member','a2e9431e-a00f-5fc7-a77d-3e505eb8ba3b',46,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','member','57374ad7-f911-4c73-ad23-98fca78da80b',43,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','category','85c02764-eaac-5fd3-8ee0-74d4f10d062c',6,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','category','cc3a491c-44ef-5bee-9f49-f1fcbddae573',34,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','category','501de63a-fbc1-5107-a85f-08712b96cf6c',35,1);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','24374f8e-070d-548a-b049-1c7e2adb91ae',39,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','121a73fc-1259-58b4-8c80-b36de6f034f0',11,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','467f7c4a-c50b-5c32-a133-05a6027c2071',36,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67',13,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1',14,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','ca12702f-ea22-5770-8425-7c99aff8cad3',38,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','aff10ad9-17e6-5c5d-91a1-56eae5f2be6d',16,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','7ccb1ee4-0211-5726-a16b-f48e7e49e270',17,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','723e1d40-0b74-5d23-858c-99c30bd8dcf6',18,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca',19,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','7068ab57-ca0e-5f7f-bffa-6eeeec8ce782',30,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','8ebd5024-5fb0-5776-9772-4d12c2ee69a1',31,1);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','340ab8d1-16f5-553a-9fa5-e5f1a506b3a4',33,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','3121b339-1d2f-5b7f-a210-866598f57394',23,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','16af9374-2310-5da4-9c57-e22321f66025',24,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','a18aaa3d-e1b3-5b02-81a9-13efee02a731',25,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','f19293ed-21e1-5cb9-b01d-a37d84d55c66',27,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','expense','3a139d29-bc05-546d-ace3-8d190eeba666',28,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','settlement','b11b04b6-19f2-4b56-bd82-3a3337b07e2f',36,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','settlement','2f7588fa-3d02-45b1-9387-8bbb89f852b9',38,1);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','settlement','dac3f12c-f5e0-48ae-a21a-a087a1e7126e',39,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','settlement','c6604a33-fb0e-55ee-b0c5-e30ab840952a',40,0);
INSERT INTO changes VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','settlement','3949d9a8-bd58-57d6-a9ba-b27623117752',42,1);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','group','14fd82f0-cdfa-506c-b703-81e6cbf5791d',1,0);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','member','b13d0a4b-6a85-47a6-b9ab-6e598e433e07',1,0);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','category','401c83fa-efbc-5357-b6be-3781d739228e',1,0);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','category','2a5dd52d-c03f-5723-be80-e147ab158de9',1,0);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','category','b13bcac3-d9cd-5bfb-b391-6a25b1d570bd',1,0);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','category','c260ce68-2c67-5136-8538-86190398dd16',1,0);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','category','587f53ec-8814-547c-a266-3de67b392483',1,0);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','category','744d7555-269a-5938-955f-d83701f191d2',1,0);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','member','1292ecdd-9156-41c4-bba0-36b92a7206e2',2,0);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','expense','db20c29f-4d36-5a0e-a9bb-fa4ab15004e3',3,0);
INSERT INTO changes VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','expense','4ff5d128-008c-584c-9b3e-79496949688c',4,0);
CREATE TABLE idempotency_keys (
    user_id TEXT NOT NULL REFERENCES users (id),
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status BIGINT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, key)
);
INSERT INTO idempotency_keys VALUES('32117117-86ad-4eca-ba25-0891c88d62dd','fixture-flight','6a7859123abba1b01d1b68db90e517aea701375af8ef6db30c9dd027910304d6',201,'{"expense":{"amount":"2400.00","category":"0d2f7404-f335-5b83-961e-51ecb541a421","categoryName":"Transport","createdAt":"2026-11-23T16:51:57Z","createdByUserId":"32117117-86ad-4eca-ba25-0891c88d62dd","currency":"MYR","description":"Flights KUL–NRT","expenseDate":"2026-04-28","groupId":"de012bda-f01c-51ea-956e-25ceda9d7a6e","id":"24374f8e-070d-548a-b049-1c7e2adb91ae","isDeleted":false,"payers":[{"amount":"2400.00","memberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0"}],"split":{"memberIds":["fb8025ea-af9b-4b44-95e8-90b30a945ed0","57374ad7-f911-4c73-ad23-98fca78da80b","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"equal"},"splits":[{"amount":"600.00","id":"fbc0ca1d-8d70-46b3-99a4-dbec84c53562","isPaid":false,"memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4"},{"amount":"600.00","id":"7d54fabc-0a72-454d-9ba8-a94390b5bbe7","isPaid":false,"memberId":"57374ad7-f911-4c73-ad23-98fca78da80b"},{"amount":"600.00","id":"d05606f6-70f6-4ccf-8346-598304659b24","isPaid":false,"memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe"},{"amount":"600.00","id":"d1327fc8-0c35-4fc4-85f2-3596c31a4637","isPaid":false,"memberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0"}],"updatedAt":"2026-11-23T16:51:57Z","version":1}}',1795452717080);
INSERT INTO idempotency_keys VALUES('f615d7ea-fa33-40e4-848b-7ebe9f513ba7','fixture-bo-aki','35f8242e558a6891cb0191d2104570220760bfedb4e65c7954c35ab11c9f15f6',201,'{"settlement":{"amount":"200.00","createdAt":"2026-11-23T16:51:57Z","createdByUserId":"f615d7ea-fa33-40e4-848b-7ebe9f513ba7","currency":"MYR","date":"2026-05-06","fromMemberId":"57374ad7-f911-4c73-ad23-98fca78da80b","groupId":"de012bda-f01c-51ea-956e-25ceda9d7a6e","id":"c6604a33-fb0e-55ee-b0c5-e30ab840952a","isDeleted":false,"note":"Bank transfer","toMemberId":"fb8025ea-af9b-4b44-95e8-90b30a945ed0","version":1}}',1795452717315);
CREATE TABLE rates (
    group_id TEXT NOT NULL REFERENCES groups (id),
    from_currency TEXT NOT NULL CHECK (length(from_currency) = 3),
    to_currency TEXT NOT NULL CHECK (length(to_currency) = 3),
    rate_date TEXT NOT NULL CHECK (length(rate_date) = 10),
    rate TEXT NOT NULL,
    updated_by_user_id TEXT NOT NULL REFERENCES users (id),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (group_id, from_currency, to_currency, rate_date)
);
INSERT INTO rates VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','JPY','MYR','2026-04-28','0.0305','32117117-86ad-4eca-ba25-0891c88d62dd',1795452717072);
INSERT INTO rates VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','JPY','MYR','2026-05-02','0.03125','32117117-86ad-4eca-ba25-0891c88d62dd',1795452717072);
INSERT INTO rates VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','USD','MYR','2026-04-28','4.4725','32117117-86ad-4eca-ba25-0891c88d62dd',1795452717072);
CREATE TABLE pair_debts (
    group_id TEXT NOT NULL REFERENCES groups (id),
    currency TEXT NOT NULL,
    lower_member_id TEXT NOT NULL REFERENCES members (id),
    higher_member_id TEXT NOT NULL REFERENCES members (id),
    owed BIGINT NOT NULL,
    PRIMARY KEY (group_id, currency, lower_member_id, higher_member_id),
    CHECK (lower_member_id < higher_member_id)
);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','MYR','19357307-6a1e-57db-b8e3-b603ef232ad4','fb8025ea-af9b-4b44-95e8-90b30a945ed0',61667);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','MYR','57374ad7-f911-4c73-ad23-98fca78da80b','fb8025ea-af9b-4b44-95e8-90b30a945ed0',-17500);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','MYR','e6b68adb-5b9a-5058-a391-c875441a07fe','fb8025ea-af9b-4b44-95e8-90b30a945ed0',58334);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','JPY','19357307-6a1e-57db-b8e3-b603ef232ad4','57374ad7-f911-4c73-ad23-98fca78da80b',6537);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','JPY','19357307-6a1e-57db-b8e3-b603ef232ad4','fb8025ea-af9b-4b44-95e8-90b30a945ed0',37363);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','JPY','57374ad7-f911-4c73-ad23-98fca78da80b','fb8025ea-af9b-4b44-95e8-90b30a945ed0',13040);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','JPY','e6b68adb-5b9a-5058-a391-c875441a07fe','fb8025ea-af9b-4b44-95e8-90b30a945ed0',17575);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','USD','19357307-6a1e-57db-b8e3-b603ef232ad4','57374ad7-f911-4c73-ad23-98fca78da80b',3667);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','USD','57374ad7-f911-4c73-ad23-98fca78da80b','fb8025ea-af9b-4b44-95e8-90b30a945ed0',-3667);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','JPY','19357307-6a1e-57db-b8e3-b603ef232ad4','e6b68adb-5b9a-5058-a391-c875441a07fe',-3273);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','MYR','19357307-6a1e-57db-b8e3-b603ef232ad4','e6b68adb-5b9a-5058-a391-c875441a07fe',3334);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','MYR','57374ad7-f911-4c73-ad23-98fca78da80b','e6b68adb-5b9a-5058-a391-c875441a07fe',3333);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','JPY','57374ad7-f911-4c73-ad23-98fca78da80b','e6b68adb-5b9a-5058-a391-c875441a07fe',-4671);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','USD','19357307-6a1e-57db-b8e3-b603ef232ad4','e6b68adb-5b9a-5058-a391-c875441a07fe',1667);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','USD','57374ad7-f911-4c73-ad23-98fca78da80b','e6b68adb-5b9a-5058-a391-c875441a07fe',1666);
INSERT INTO pair_debts VALUES('de012bda-f01c-51ea-956e-25ceda9d7a6e','USD','e6b68adb-5b9a-5058-a391-c875441a07fe','fb8025ea-af9b-4b44-95e8-90b30a945ed0',-1667);
INSERT INTO pair_debts VALUES('14fd82f0-cdfa-506c-b703-81e6cbf5791d','SGD','1292ecdd-9156-41c4-bba0-36b92a7206e2','b13d0a4b-6a85-47a6-b9ab-6e598e433e07',7680);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX members_by_user ON members (user_id);
CREATE INDEX auth_attempts_by_subject ON auth_attempts (scope, subject, at);
CREATE UNIQUE INDEX members_one_owner ON members (group_id) WHERE role = 'owner';
CREATE INDEX auth_attempts_by_time ON auth_attempts (at);
CREATE INDEX categories_by_group ON categories (group_id);
CREATE INDEX expenses_by_group ON expenses (group_id, expense_date, id);
CREATE INDEX expense_payers_by_member ON expense_payers (member_id);
CREATE INDEX expense_splits_by_member ON expense_splits (member_id);
CREATE INDEX settlements_by_group ON settlements (group_id, created_at);
CREATE INDEX settlements_by_split ON settlements (expense_split_id);
CREATE INDEX payment_history_by_split ON payment_history (expense_split_id, seq);
CREATE INDEX activity_by_group ON activity (group_id, seq);
CREATE INDEX changes_by_seq ON changes (group_id, seq);
COMMIT;
