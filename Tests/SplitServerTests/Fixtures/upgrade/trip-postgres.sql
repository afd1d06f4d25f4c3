SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;
SET default_tablespace = '';
SET default_table_access_method = heap;
CREATE TABLE public.activity (
    id text NOT NULL,
    group_id text NOT NULL,
    seq bigint NOT NULL,
    actor_user_id text,
    actor_name text DEFAULT ''::text NOT NULL,
    action text NOT NULL,
    entity text NOT NULL,
    entity_id text NOT NULL,
    summary text NOT NULL,
    at bigint NOT NULL
);
CREATE TABLE public.auth_attempts (
    id text NOT NULL,
    scope text NOT NULL,
    subject text NOT NULL,
    at bigint NOT NULL,
    CONSTRAINT auth_attempts_scope_check CHECK ((scope = ANY (ARRAY['login_account'::text, 'login_address'::text, 'register_address'::text])))
);
CREATE TABLE public.balances (
    group_id text NOT NULL,
    member_id text NOT NULL,
    currency text NOT NULL,
    net bigint NOT NULL
);
CREATE TABLE public.categories (
    id text NOT NULL,
    group_id text NOT NULL,
    name text NOT NULL,
    icon text DEFAULT ''::text NOT NULL,
    color text DEFAULT ''::text NOT NULL,
    is_default boolean DEFAULT false NOT NULL,
    "position" bigint NOT NULL,
    is_deleted boolean DEFAULT false NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    CONSTRAINT categories_name_check CHECK (((length(name) >= 1) AND (length(name) <= 50)))
);
CREATE TABLE public.changes (
    group_id text NOT NULL,
    entity text NOT NULL,
    entity_id text NOT NULL,
    seq bigint NOT NULL,
    is_deleted boolean NOT NULL,
    CONSTRAINT changes_entity_check CHECK ((entity = ANY (ARRAY['group'::text, 'member'::text, 'category'::text, 'expense'::text, 'settlement'::text])))
);
CREATE TABLE public.expense_payers (
    expense_id text NOT NULL,
    member_id text NOT NULL,
    amount bigint NOT NULL,
    CONSTRAINT expense_payers_amount_check CHECK ((amount > 0))
);
CREATE TABLE public.expense_splits (
    id text NOT NULL,
    expense_id text NOT NULL,
    member_id text NOT NULL,
    amount bigint NOT NULL,
    is_paid boolean DEFAULT false NOT NULL,
    paid_at bigint,
    is_removed boolean DEFAULT false NOT NULL,
    CONSTRAINT expense_splits_amount_check CHECK ((amount >= 0))
);
CREATE TABLE public.expenses (
    id text NOT NULL,
    group_id text NOT NULL,
    description text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    category_id text NOT NULL,
    expense_date text NOT NULL,
    split_json text NOT NULL,
    home_amount bigint,
    home_currency text,
    created_by_user_id text NOT NULL,
    is_deleted boolean DEFAULT false NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    CONSTRAINT expenses_amount_check CHECK ((amount > 0)),
    CONSTRAINT expenses_currency_check CHECK ((length(currency) = 3)),
    CONSTRAINT expenses_description_check CHECK (((length(description) >= 1) AND (length(description) <= 200))),
    CONSTRAINT expenses_expense_date_check CHECK ((length(expense_date) = 10))
);
CREATE TABLE public.groups (
    id text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    home_currency text NOT NULL,
    owner_user_id text NOT NULL,
    invite_code text,
    is_archived boolean DEFAULT false NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    change_seq bigint DEFAULT 0 NOT NULL,
    CONSTRAINT groups_home_currency_check CHECK ((length(home_currency) = 3)),
    CONSTRAINT groups_name_check CHECK (((length(name) >= 1) AND (length(name) <= 100)))
);
CREATE TABLE public.idempotency_keys (
    user_id text NOT NULL,
    key text NOT NULL,
    request_hash text NOT NULL,
    status bigint NOT NULL,
    body text NOT NULL,
    created_at bigint NOT NULL
);
CREATE TABLE public.members (
    id text NOT NULL,
    group_id text NOT NULL,
    user_id text,
    name text NOT NULL,
    role text NOT NULL,
    can_add_expenses boolean DEFAULT true NOT NULL,
    can_edit_own_expenses boolean DEFAULT true NOT NULL,
    can_edit_all_expenses boolean DEFAULT false NOT NULL,
    can_mark_paid boolean DEFAULT true NOT NULL,
    is_active boolean DEFAULT true NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    CONSTRAINT members_name_check CHECK (((length(name) >= 1) AND (length(name) <= 100))),
    CONSTRAINT members_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'admin'::text, 'member'::text, 'viewer'::text])))
);
CREATE TABLE public.pair_debts (
    group_id text NOT NULL,
    currency text NOT NULL,
    lower_member_id text NOT NULL,
    higher_member_id text NOT NULL,
    owed bigint NOT NULL,
    CONSTRAINT pair_debts_check CHECK ((lower_member_id < higher_member_id))
);
CREATE TABLE public.payment_history (
    id text NOT NULL,
    expense_split_id text NOT NULL,
    action text NOT NULL,
    performed_by_user_id text NOT NULL,
    performed_by_name text NOT NULL,
    performed_at bigint NOT NULL,
    seq bigint NOT NULL,
    reason text,
    ip_address text,
    device_info text,
    CONSTRAINT payment_history_action_check CHECK ((action = ANY (ARRAY['marked_paid'::text, 'marked_unpaid'::text])))
);
CREATE TABLE public.rates (
    group_id text NOT NULL,
    from_currency text NOT NULL,
    to_currency text NOT NULL,
    rate_date text NOT NULL,
    rate text NOT NULL,
    updated_by_user_id text NOT NULL,
    updated_at bigint NOT NULL,
    CONSTRAINT rates_from_currency_check CHECK ((length(from_currency) = 3)),
    CONSTRAINT rates_rate_date_check CHECK ((length(rate_date) = 10)),
    CONSTRAINT rates_to_currency_check CHECK ((length(to_currency) = 3))
);
CREATE TABLE public.schema_migrations (
    id text NOT NULL,
    applied_at bigint NOT NULL
);
CREATE TABLE public.sessions (
    id text NOT NULL,
    user_id text NOT NULL,
    token_hash text NOT NULL,
    device_id text,
    device_name text,
    ip_address text,
    created_at bigint NOT NULL,
    last_used_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    revoked_at bigint
);
CREATE TABLE public.settlements (
    id text NOT NULL,
    group_id text NOT NULL,
    from_member_id text NOT NULL,
    to_member_id text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    settled_on text NOT NULL,
    note text DEFAULT ''::text NOT NULL,
    expense_split_id text,
    created_by_user_id text NOT NULL,
    is_deleted boolean DEFAULT false NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    CONSTRAINT settlements_amount_check CHECK ((amount > 0)),
    CONSTRAINT settlements_check CHECK ((from_member_id <> to_member_id)),
    CONSTRAINT settlements_currency_check CHECK ((length(currency) = 3))
);
CREATE TABLE public.users (
    id text NOT NULL,
    email text,
    phone text,
    display_name text NOT NULL,
    password_hash text NOT NULL,
    is_active boolean DEFAULT true NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    CONSTRAINT users_check CHECK (((email IS NOT NULL) OR (phone IS NOT NULL))),
    CONSTRAINT users_display_name_check CHECK (((length(display_name) >= 1) AND (length(display_name) <= 100)))
);
INSERT INTO public.activity VALUES ('6de380ac-1b13-40a6-8887-0390278f0e15', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 1, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'group.created', 'group', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Aki created Japan 2026 🗾', 1795452723648);
INSERT INTO public.activity VALUES ('85b78ad9-5241-41e3-8d54-48ec52bb4dc8', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 2, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'member.added', 'member', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'Aki added Chen', 1795452723687);
INSERT INTO public.activity VALUES ('4c081afa-a0b4-489e-a615-f04e151df8b4', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 3, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'member.added', 'member', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 'Aki added Dee', 1795452723708);
INSERT INTO public.activity VALUES ('0cb17722-98c3-4b92-bd44-a965813e2742', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 4, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'member.added', 'member', 'a2e9431e-a00f-5fc7-a77d-3e505eb8ba3b', 'Aki added Eve', 1795452723726);
INSERT INTO public.activity VALUES ('ab042078-5684-41ee-851f-622496344a67', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 5, '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo', 'member.joined', 'member', 'ced652b2-494f-4017-a418-0386199b255d', 'Bo joined', 1795452723742);
INSERT INTO public.activity VALUES ('8198c800-3092-4770-9059-d38e12354e27', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 6, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'category.created', 'category', '85c02764-eaac-5fd3-8ee0-74d4f10d062c', 'Aki added category Souvenirs', 1795452723778);
INSERT INTO public.activity VALUES ('7771812e-c15c-4aba-8d14-57f2f6fe0994', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 7, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'category.created', 'category', 'cc3a491c-44ef-5bee-9f49-f1fcbddae573', 'Aki added category Snacks', 1795452723802);
INSERT INTO public.activity VALUES ('60ab41d5-8311-49bf-85ae-a11f7b10631a', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 8, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'category.created', 'category', '501de63a-fbc1-5107-a85f-08712b96cf6c', 'Aki added category Day trips', 1795452723824);
INSERT INTO public.activity VALUES ('af0da3d6-798a-4546-a809-9d4ec1f78198', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 9, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'rates.updated', 'group', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Aki set 3 exchange rate(s)', 1795452723846);
INSERT INTO public.activity VALUES ('d73b53a4-23b2-4f16-9853-32be8b38ae2d', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 10, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '24374f8e-070d-548a-b049-1c7e2adb91ae', 'Aki added Flights KUL–NRT (2,400.00 MYR)', 1795452723871);
INSERT INTO public.activity VALUES ('7cae898f-7d18-40ee-a0cf-6960893b71d4', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 11, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '121a73fc-1259-58b4-8c80-b36de6f034f0', 'Aki added Hotel Shinjuku, 3 nights (100,000 JPY)', 1795452723914);
INSERT INTO public.activity VALUES ('80ffb8a3-8285-46c2-8ade-f1fcb500c37e', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 12, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '467f7c4a-c50b-5c32-a133-05a6027c2071', 'Aki added Dinner at Ichiran (9,000 JPY)', 1795452723946);
INSERT INTO public.activity VALUES ('7a66a019-27f4-4d82-a7ca-fa3fde67d7d9', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 13, '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo', 'expense.created', 'expense', '5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67', 'Bo added Pocket wifi (100.00 USD)', 1795452723979);
INSERT INTO public.activity VALUES ('d1568a21-4ac5-42d9-b8ad-86f464d030a4', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 14, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1', 'Aki added Izakaya night (24,001 JPY)', 1795452724012);
INSERT INTO public.activity VALUES ('58a686d3-80d5-40ad-9473-c7e714e1664e', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 15, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', 'ca12702f-ea22-5770-8425-7c99aff8cad3', 'Aki added Taxi to KLIA (100.00 MYR)', 1795452724043);
INSERT INTO public.activity VALUES ('4a7c6beb-a6fc-4645-9449-fa017e1b6ae8', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 16, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', 'aff10ad9-17e6-5c5d-91a1-56eae5f2be6d', 'Aki added Sushi omakase (18,000 JPY)', 1795452724075);
INSERT INTO public.activity VALUES ('173239a5-dfdc-4045-9ce8-2298fe5d8be1', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 17, '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo', 'expense.created', 'expense', '7ccb1ee4-0211-5726-a16b-f48e7e49e270', 'Bo added Konbini run (5,640 JPY)', 1795452724107);
INSERT INTO public.activity VALUES ('a2fa95f6-5e05-4918-8457-a17072afc132', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 18, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '723e1d40-0b74-5d23-858c-99c30bd8dcf6', 'Aki added Shinkansen Tokyo–Osaka (44,000 JPY)', 1795452724138);
INSERT INTO public.activity VALUES ('81fa5d5d-fea3-49f2-a18a-57a41e3daa60', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 19, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca', 'Aki added Gift for our host (50.00 USD)', 1795452724170);
INSERT INTO public.activity VALUES ('1c4ec11f-5ecd-459d-af07-dbbae1a61b43', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 20, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '7068ab57-ca0e-5f7f-bffa-6eeeec8ce782', 'Aki added Onsen (6,000 JPY)', 1795452724201);
INSERT INTO public.activity VALUES ('d4888b63-96b7-4fc3-9820-d2740a8a7681', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 21, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '8ebd5024-5fb0-5776-9772-4d12c2ee69a1', 'Aki added Taxi to KLIA (entered twice) (45.00 MYR)', 1795452724236);
INSERT INTO public.activity VALUES ('a2aa0064-a765-4569-ab05-f3bf5524fe71', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 22, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '340ab8d1-16f5-553a-9fa5-e5f1a506b3a4', 'Aki added Karaoke (12,000 JPY)', 1795452724263);
INSERT INTO public.activity VALUES ('71cd7e8b-34c3-4d96-b199-b044b4a0a4b7', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 23, '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo', 'expense.created', 'expense', '3121b339-1d2f-5b7f-a210-866598f57394', 'Bo added Coffee (10.00 USD)', 1795452724293);
INSERT INTO public.activity VALUES ('c6ea560d-6e52-4b3c-8002-a0e67e401f84', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 24, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '16af9374-2310-5da4-9c57-e22321f66025', 'Aki added Museum tickets (66.67 MYR)', 1795452724324);
INSERT INTO public.activity VALUES ('6ad03c0b-cf53-47a1-8a40-0d9f4146187e', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 25, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', 'a18aaa3d-e1b3-5b02-81a9-13efee02a731', 'Aki added Ramen (seed shape) (3,200 JPY)', 1795452724356);
INSERT INTO public.activity VALUES ('8b801dfb-901d-4815-bfe4-80ce29bb3e8d', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 26, '29a9bd93-d557-41f0-99f8-9e67e60147f9', 'Chen Wei', 'member.joined', 'member', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'Chen Wei joined as Chen', 1795452724384);
INSERT INTO public.activity VALUES ('6df7a75f-2b02-4865-bb91-86dcc2d52396', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 27, '29a9bd93-d557-41f0-99f8-9e67e60147f9', 'Chen', 'expense.created', 'expense', 'f19293ed-21e1-5cb9-b01d-a37d84d55c66', 'Chen added KitKat souvenirs (3,500 JPY)', 1795452724406);
INSERT INTO public.activity VALUES ('ed387db1-affe-4901-9ef4-990ec8a3e118', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 28, '29a9bd93-d557-41f0-99f8-9e67e60147f9', 'Chen', 'expense.created', 'expense', '3a139d29-bc05-546d-ace3-8d190eeba666', 'Chen added Ferry to Miyajima (1,000 JPY)', 1795452724437);
INSERT INTO public.activity VALUES ('313f71af-8c2d-4eec-8be4-95d05f010945', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 29, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.updated', 'expense', '7068ab57-ca0e-5f7f-bffa-6eeeec8ce782', 'Aki changed Onsen day pass (7,500 JPY)', 1795452724484);
INSERT INTO public.activity VALUES ('49aa163d-47fa-4c15-8411-06a7ceb6fa99', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 30, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.updated', 'expense', '7068ab57-ca0e-5f7f-bffa-6eeeec8ce782', 'Aki changed Onsen day pass (7,500 JPY)', 1795452724540);
INSERT INTO public.activity VALUES ('255e2ff9-8028-4b23-844d-219d62cb92e7', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 31, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.deleted', 'expense', '8ebd5024-5fb0-5776-9772-4d12c2ee69a1', 'Aki deleted Taxi to KLIA (entered twice)', 1795452724583);
INSERT INTO public.activity VALUES ('2f1e2fc0-d53b-4329-a947-eb7b7af2b591', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 32, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.deleted', 'expense', '340ab8d1-16f5-553a-9fa5-e5f1a506b3a4', 'Aki deleted Karaoke', 1795452724615);
INSERT INTO public.activity VALUES ('708c6407-224f-490c-b9a1-d7dd2c83e081', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 36, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'share.marked_paid', 'expense', '467f7c4a-c50b-5c32-a133-05a6027c2071', 'Aki marked a share of Dinner at Ichiran paid', 1795452724716);
INSERT INTO public.activity VALUES ('a2b0c793-b52a-4c51-849f-affaaf378d50', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 38, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'share.marked_unpaid', 'expense', 'ca12702f-ea22-5770-8425-7c99aff8cad3', 'Aki marked a share of Taxi to KLIA unpaid', 1795452724786);
INSERT INTO public.activity VALUES ('cf1ce51c-a8c9-4481-81e7-b2b3b5c93164', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 2, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'member.joined', 'member', '1c4360b8-4ac0-4617-a29b-2b4290fc6017', 'Aki joined', 1795452725026);
INSERT INTO public.activity VALUES ('b1eb41d5-12b6-49e2-8aaf-ec0621ead27c', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 4, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.created', 'expense', '4ff5d128-008c-584c-9b3e-79496949688c', 'Aki added Hawker centre (23.40 SGD)', 1795452725062);
INSERT INTO public.activity VALUES ('30b71b34-ec14-4ccc-8539-bf750ce82ef9', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 33, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'expense.restored', 'expense', '340ab8d1-16f5-553a-9fa5-e5f1a506b3a4', 'Aki restored Karaoke', 1795452724646);
INSERT INTO public.activity VALUES ('c17f3df0-5828-441f-9ab8-0925ef863ec9', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 34, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'category.updated', 'category', 'cc3a491c-44ef-5bee-9f49-f1fcbddae573', 'Aki changed category Snacks & drinks', 1795452724672);
INSERT INTO public.activity VALUES ('db5781f5-705a-4e96-b846-e5a617e59d83', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 35, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'category.deleted', 'category', '501de63a-fbc1-5107-a85f-08712b96cf6c', 'Aki deleted category Day trips', 1795452724693);
INSERT INTO public.activity VALUES ('6a951258-9d7b-4877-88fa-2cc7408e87c4', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 37, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'share.marked_paid', 'expense', 'ca12702f-ea22-5770-8425-7c99aff8cad3', 'Aki marked a share of Taxi to KLIA paid', 1795452724756);
INSERT INTO public.activity VALUES ('202476c9-1bec-470f-a749-9c14c87b6272', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 39, '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo', 'share.marked_paid', 'expense', '24374f8e-070d-548a-b049-1c7e2adb91ae', 'Bo marked a share of Flights KUL–NRT paid', 1795452724819);
INSERT INTO public.activity VALUES ('c1a40fe1-bdbb-4a33-b35f-9cc33fd07811', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 40, '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo', 'settlement.recorded', 'settlement', 'c6604a33-fb0e-55ee-b0c5-e30ab840952a', 'Bo recorded a transfer of 200.00 MYR', 1795452724847);
INSERT INTO public.activity VALUES ('7a85fdba-99ef-486d-b65a-1e11a6bbca08', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 41, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'settlement.recorded', 'settlement', '3949d9a8-bd58-57d6-a9ba-b27623117752', 'Aki recorded a transfer of 5,000 JPY', 1795452724873);
INSERT INTO public.activity VALUES ('7b087205-60dc-41a4-8d2e-f2609e9da6d0', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 42, '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'settlement.deleted', 'settlement', '3949d9a8-bd58-57d6-a9ba-b27623117752', 'Aki deleted a transfer of 5,000 JPY', 1795452724896);
INSERT INTO public.activity VALUES ('9d1c7e6f-f160-4fdf-9164-64204b616d15', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 1, '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo B.', 'group.created', 'group', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'Bo B. created Singapore weekend', 1795452725002);
INSERT INTO public.activity VALUES ('d89fdce1-03c0-4abf-a016-42169ae4ff1f', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 3, '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo B.', 'expense.created', 'expense', 'db20c29f-4d36-5a0e-a9bb-fa4ab15004e3', 'Bo B. added Chilli crab (180.00 SGD)', 1795452725040);
INSERT INTO public.auth_attempts VALUES ('d6b3b150-46c9-4e89-92f0-dd53da305bf7', 'register_address', '5cb01652e9d4c3a822628b8cb5cad545ebe438dfbcb8533942aea3079556bb53', 1795452722306);
INSERT INTO public.auth_attempts VALUES ('c4ef8ad5-82d3-4a73-9286-937c07f3c58e', 'register_address', '5cb01652e9d4c3a822628b8cb5cad545ebe438dfbcb8533942aea3079556bb53', 1795452722758);
INSERT INTO public.auth_attempts VALUES ('069af765-8ab6-4abc-aa2f-17429f0b7614', 'register_address', '5cb01652e9d4c3a822628b8cb5cad545ebe438dfbcb8533942aea3079556bb53', 1795452723206);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 'USD', 5000);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 'JPY', -25519);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'ced652b2-494f-4017-a418-0386199b255d', 'JPY', -1832);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'MYR', -65001);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 'MYR', -51667);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 'MYR', 102501);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'ced652b2-494f-4017-a418-0386199b255d', 'MYR', 14167);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'USD', -5334);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 'USD', -5332);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'ced652b2-494f-4017-a418-0386199b255d', 'USD', 5666);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'JPY', -40627);
INSERT INTO public.balances VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 'JPY', 67978);
INSERT INTO public.balances VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', '1c4360b8-4ac0-4617-a29b-2b4290fc6017', 'SGD', -7680);
INSERT INTO public.balances VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', '55f9a7b1-8102-4153-a9ef-b24038d1b254', 'SGD', 7680);
INSERT INTO public.categories VALUES ('e612ead9-452e-5b10-aada-ae98d89592f4', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Meal', '🍜', '#E4572E', true, 0, false, 1, 1795452723648, 1795452723648);
INSERT INTO public.categories VALUES ('0d2f7404-f335-5b83-961e-51ecb541a421', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Transport', '🚆', '#2E86AB', true, 1, false, 1, 1795452723648, 1795452723648);
INSERT INTO public.categories VALUES ('e51c7851-42ea-5516-97f9-23f58ec2f3d7', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Tickets', '🎫', '#A23B72', true, 2, false, 1, 1795452723648, 1795452723648);
INSERT INTO public.categories VALUES ('fbacbbc9-4226-5e93-999b-f731bc6dddd5', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Shopping', '🛍️', '#F18F01', true, 3, false, 1, 1795452723648, 1795452723648);
INSERT INTO public.categories VALUES ('4c23468e-6a8b-5e69-ab6c-04833285541c', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Hotel', '🏨', '#3B8B5A', true, 4, false, 1, 1795452723648, 1795452723648);
INSERT INTO public.categories VALUES ('d525f5ce-fe48-55ff-a8a4-41f17e176a4e', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Other', '📦', '#6C757D', true, 5, false, 1, 1795452723648, 1795452723648);
INSERT INTO public.categories VALUES ('85c02764-eaac-5fd3-8ee0-74d4f10d062c', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Souvenirs', '🎁', '#8E44AD', false, 6, false, 1, 1795452723778, 1795452723778);
INSERT INTO public.categories VALUES ('cc3a491c-44ef-5bee-9f49-f1fcbddae573', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Snacks & drinks', '🍡', '#E76F51', false, 7, false, 2, 1795452723802, 1795452724672);
INSERT INTO public.categories VALUES ('501de63a-fbc1-5107-a85f-08712b96cf6c', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Day trips', '🏷️', '#6C757D', false, 8, true, 2, 1795452723824, 1795452724693);
INSERT INTO public.categories VALUES ('401c83fa-efbc-5357-b6be-3781d739228e', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'Meal', '🍜', '#E4572E', true, 0, false, 1, 1795452725002, 1795452725002);
INSERT INTO public.categories VALUES ('2a5dd52d-c03f-5723-be80-e147ab158de9', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'Transport', '🚆', '#2E86AB', true, 1, false, 1, 1795452725002, 1795452725002);
INSERT INTO public.categories VALUES ('b13bcac3-d9cd-5bfb-b391-6a25b1d570bd', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'Tickets', '🎫', '#A23B72', true, 2, false, 1, 1795452725002, 1795452725002);
INSERT INTO public.categories VALUES ('c260ce68-2c67-5136-8538-86190398dd16', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'Shopping', '🛍️', '#F18F01', true, 3, false, 1, 1795452725002, 1795452725002);
INSERT INTO public.categories VALUES ('587f53ec-8814-547c-a266-3de67b392483', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'Hotel', '🏨', '#3B8B5A', true, 4, false, 1, 1795452725002, 1795452725002);
INSERT INTO public.categories VALUES ('744d7555-269a-5938-955f-d83701f191d2', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'Other', '📦', '#6C757D', true, 5, false, 1, 1795452725002, 1795452725002);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'member', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 1, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'category', 'e612ead9-452e-5b10-aada-ae98d89592f4', 1, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'category', '0d2f7404-f335-5b83-961e-51ecb541a421', 1, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'category', 'e51c7851-42ea-5516-97f9-23f58ec2f3d7', 1, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'category', 'fbacbbc9-4226-5e93-999b-f731bc6dddd5', 1, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'category', '4c23468e-6a8b-5e69-ab6c-04833285541c', 1, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'category', 'd525f5ce-fe48-55ff-a8a4-41f17e176a4e', 1, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'category', '85c02764-eaac-5fd3-8ee0-74d4f10d062c', 6, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '121a73fc-1259-58b4-8c80-b36de6f034f0', 11, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67', 13, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1', 14, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', 'aff10ad9-17e6-5c5d-91a1-56eae5f2be6d', 16, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '7ccb1ee4-0211-5726-a16b-f48e7e49e270', 17, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '723e1d40-0b74-5d23-858c-99c30bd8dcf6', 18, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca', 19, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '3121b339-1d2f-5b7f-a210-866598f57394', 23, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '16af9374-2310-5da4-9c57-e22321f66025', 24, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', 'a18aaa3d-e1b3-5b02-81a9-13efee02a731', 25, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', 'f19293ed-21e1-5cb9-b01d-a37d84d55c66', 27, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '3a139d29-bc05-546d-ace3-8d190eeba666', 28, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '7068ab57-ca0e-5f7f-bffa-6eeeec8ce782', 30, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '8ebd5024-5fb0-5776-9772-4d12c2ee69a1', 31, true);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '340ab8d1-16f5-553a-9fa5-e5f1a506b3a4', 33, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'category', 'cc3a491c-44ef-5bee-9f49-f1fcbddae573', 34, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'category', '501de63a-fbc1-5107-a85f-08712b96cf6c', 35, true);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'settlement', '2c640aa9-d61b-401d-bef1-db0fb39ffca2', 36, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '467f7c4a-c50b-5c32-a133-05a6027c2071', 36, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'settlement', 'ee99468e-552e-4912-98ba-00d19f7134cf', 38, true);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', 'ca12702f-ea22-5770-8425-7c99aff8cad3', 38, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'settlement', '32aeb7c6-c2db-4163-99f9-ff60363c9c85', 39, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'expense', '24374f8e-070d-548a-b049-1c7e2adb91ae', 39, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'settlement', 'c6604a33-fb0e-55ee-b0c5-e30ab840952a', 40, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'settlement', '3949d9a8-bd58-57d6-a9ba-b27623117752', 42, true);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'member', 'ced652b2-494f-4017-a418-0386199b255d', 43, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'member', '19357307-6a1e-57db-b8e3-b603ef232ad4', 44, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'member', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 45, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'member', 'a2e9431e-a00f-5fc7-a77d-3e505eb8ba3b', 46, false);
INSERT INTO public.changes VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'group', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 48, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'group', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 1, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'member', '55f9a7b1-8102-4153-a9ef-b24038d1b254', 1, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'category', '401c83fa-efbc-5357-b6be-3781d739228e', 1, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'category', '2a5dd52d-c03f-5723-be80-e147ab158de9', 1, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'category', 'b13bcac3-d9cd-5bfb-b391-6a25b1d570bd', 1, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'category', 'c260ce68-2c67-5136-8538-86190398dd16', 1, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'category', '587f53ec-8814-547c-a266-3de67b392483', 1, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'category', '744d7555-269a-5938-955f-d83701f191d2', 1, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'member', '1c4360b8-4ac0-4617-a29b-2b4290fc6017', 2, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'expense', 'db20c29f-4d36-5a0e-a9bb-fa4ab15004e3', 3, false);
INSERT INTO public.changes VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'expense', '4ff5d128-008c-584c-9b3e-79496949688c', 4, false);
INSERT INTO public.expense_payers VALUES ('24374f8e-070d-548a-b049-1c7e2adb91ae', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 240000);
INSERT INTO public.expense_payers VALUES ('121a73fc-1259-58b4-8c80-b36de6f034f0', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 60000);
INSERT INTO public.expense_payers VALUES ('121a73fc-1259-58b4-8c80-b36de6f034f0', 'ced652b2-494f-4017-a418-0386199b255d', 40000);
INSERT INTO public.expense_payers VALUES ('467f7c4a-c50b-5c32-a133-05a6027c2071', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 9000);
INSERT INTO public.expense_payers VALUES ('5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67', 'ced652b2-494f-4017-a418-0386199b255d', 10000);
INSERT INTO public.expense_payers VALUES ('32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1', '19357307-6a1e-57db-b8e3-b603ef232ad4', 24001);
INSERT INTO public.expense_payers VALUES ('ca12702f-ea22-5770-8425-7c99aff8cad3', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 10000);
INSERT INTO public.expense_payers VALUES ('aff10ad9-17e6-5c5d-91a1-56eae5f2be6d', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 18000);
INSERT INTO public.expense_payers VALUES ('7ccb1ee4-0211-5726-a16b-f48e7e49e270', 'ced652b2-494f-4017-a418-0386199b255d', 5640);
INSERT INTO public.expense_payers VALUES ('723e1d40-0b74-5d23-858c-99c30bd8dcf6', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 44000);
INSERT INTO public.expense_payers VALUES ('1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 5000);
INSERT INTO public.expense_payers VALUES ('8ebd5024-5fb0-5776-9772-4d12c2ee69a1', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 4500);
INSERT INTO public.expense_payers VALUES ('340ab8d1-16f5-553a-9fa5-e5f1a506b3a4', 'ced652b2-494f-4017-a418-0386199b255d', 12000);
INSERT INTO public.expense_payers VALUES ('3121b339-1d2f-5b7f-a210-866598f57394', 'ced652b2-494f-4017-a418-0386199b255d', 1000);
INSERT INTO public.expense_payers VALUES ('16af9374-2310-5da4-9c57-e22321f66025', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 6667);
INSERT INTO public.expense_payers VALUES ('a18aaa3d-e1b3-5b02-81a9-13efee02a731', '19357307-6a1e-57db-b8e3-b603ef232ad4', 3200);
INSERT INTO public.expense_payers VALUES ('f19293ed-21e1-5cb9-b01d-a37d84d55c66', '19357307-6a1e-57db-b8e3-b603ef232ad4', 3500);
INSERT INTO public.expense_payers VALUES ('3a139d29-bc05-546d-ace3-8d190eeba666', '19357307-6a1e-57db-b8e3-b603ef232ad4', 700);
INSERT INTO public.expense_payers VALUES ('3a139d29-bc05-546d-ace3-8d190eeba666', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 300);
INSERT INTO public.expense_payers VALUES ('7068ab57-ca0e-5f7f-bffa-6eeeec8ce782', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 7500);
INSERT INTO public.expense_payers VALUES ('db20c29f-4d36-5a0e-a9bb-fa4ab15004e3', '55f9a7b1-8102-4153-a9ef-b24038d1b254', 18000);
INSERT INTO public.expense_payers VALUES ('4ff5d128-008c-584c-9b3e-79496949688c', '1c4360b8-4ac0-4617-a29b-2b4290fc6017', 2340);
INSERT INTO public.expense_splits VALUES ('f3366a17-777e-4f39-9664-cf36c45bcc8a', '24374f8e-070d-548a-b049-1c7e2adb91ae', '19357307-6a1e-57db-b8e3-b603ef232ad4', 60000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('f337c057-af73-4291-bebe-d259818a058f', '24374f8e-070d-548a-b049-1c7e2adb91ae', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 60000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('cae83767-9e6d-47ae-bc0d-f471770a35ae', '24374f8e-070d-548a-b049-1c7e2adb91ae', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 60000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('cc014707-3b40-43e7-b69b-c876380b0abc', '121a73fc-1259-58b4-8c80-b36de6f034f0', '19357307-6a1e-57db-b8e3-b603ef232ad4', 33334, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('bae9408d-c271-452d-9ca9-462cfa299e28', '121a73fc-1259-58b4-8c80-b36de6f034f0', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 33333, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('09246a15-dc09-4cfe-b5fc-8131feea1c00', '121a73fc-1259-58b4-8c80-b36de6f034f0', 'ced652b2-494f-4017-a418-0386199b255d', 33333, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('f84b2bd4-31a6-4400-a7c6-8ded1613f9b6', '467f7c4a-c50b-5c32-a133-05a6027c2071', '19357307-6a1e-57db-b8e3-b603ef232ad4', 2000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('68cc5a92-aa59-4ceb-88b7-32a3d43775e5', '467f7c4a-c50b-5c32-a133-05a6027c2071', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 3000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('2f76ebab-9834-4921-88d8-66b1b706ca29', '467f7c4a-c50b-5c32-a133-05a6027c2071', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 1500, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('ea9a2571-e4ce-4529-b0ec-c8f957249fd3', '5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67', '19357307-6a1e-57db-b8e3-b603ef232ad4', 3334, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('c07e1219-9e6a-44f8-9fb4-14a435b23cdb', '5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 3333, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('c8ef0821-c647-4c81-8221-14ddd10b4bda', '5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67', 'ced652b2-494f-4017-a418-0386199b255d', 3333, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('2a2b2f0d-a136-415b-ad87-d4476bbc1a2c', '32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1', '19357307-6a1e-57db-b8e3-b603ef232ad4', 9818, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('572146e9-71b9-45e3-9fb2-8c5ed2f2b036', '32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 6546, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('c845106b-a07a-4ebf-b865-8389d0c12366', '32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1', 'ced652b2-494f-4017-a418-0386199b255d', 4364, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('e21d6cf4-7ba7-4245-a53a-89f41ec5ea58', '32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 3273, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('bd63db76-aa95-4f6a-a3fa-a78a59e56617', 'ca12702f-ea22-5770-8425-7c99aff8cad3', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 3333, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('b59a09a2-9268-4490-8442-edea1b9986a4', 'ca12702f-ea22-5770-8425-7c99aff8cad3', 'ced652b2-494f-4017-a418-0386199b255d', 3333, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('c4ef71d1-2696-45cf-b4a7-4d5361285624', 'aff10ad9-17e6-5c5d-91a1-56eae5f2be6d', '19357307-6a1e-57db-b8e3-b603ef232ad4', 4375, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('5efcb7ef-a55a-4b98-922b-7c87e8fc6c13', 'aff10ad9-17e6-5c5d-91a1-56eae5f2be6d', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 5875, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('c938ed1e-82bd-4923-a5e4-891c0fd60b56', 'aff10ad9-17e6-5c5d-91a1-56eae5f2be6d', 'ced652b2-494f-4017-a418-0386199b255d', 4375, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('ca7cf478-416f-4f45-b770-f307377986c7', 'aff10ad9-17e6-5c5d-91a1-56eae5f2be6d', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 3375, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('31069f3e-9fba-472a-87ae-97a71f69174c', '7ccb1ee4-0211-5726-a16b-f48e7e49e270', '19357307-6a1e-57db-b8e3-b603ef232ad4', 1567, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('7a527537-01e7-42b9-bf67-2a5a5c17ac8e', '7ccb1ee4-0211-5726-a16b-f48e7e49e270', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 835, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('2f5d1041-4c74-416c-956d-143e40f0217e', '7ccb1ee4-0211-5726-a16b-f48e7e49e270', 'ced652b2-494f-4017-a418-0386199b255d', 1567, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('148e5ac0-dac3-4215-86b1-1fb125a6e539', '7ccb1ee4-0211-5726-a16b-f48e7e49e270', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 1671, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('452d99b4-0e40-4e98-943f-95fbfabc7499', '723e1d40-0b74-5d23-858c-99c30bd8dcf6', '19357307-6a1e-57db-b8e3-b603ef232ad4', 11000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('5cbac9fd-b0d6-4318-9b7b-86344a818234', '723e1d40-0b74-5d23-858c-99c30bd8dcf6', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 11000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('39f2cdc8-5d66-4990-a047-f9734df127d5', '723e1d40-0b74-5d23-858c-99c30bd8dcf6', 'ced652b2-494f-4017-a418-0386199b255d', 11000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('e8a1d8d3-afce-49ba-a5ec-e6a206d6a308', '723e1d40-0b74-5d23-858c-99c30bd8dcf6', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 11000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('8893895d-1259-430b-8096-7fd113132e06', '1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca', '19357307-6a1e-57db-b8e3-b603ef232ad4', 1667, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('ba9b7ec8-91f4-4391-8836-ef28c68866ab', '1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 1666, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('e29cafe6-63de-4acc-9192-00a20674636e', '1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca', 'ced652b2-494f-4017-a418-0386199b255d', 1667, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('3e1c7e81-3fb0-47f9-9a86-a5e4fae01d31', '8ebd5024-5fb0-5776-9772-4d12c2ee69a1', '19357307-6a1e-57db-b8e3-b603ef232ad4', 1500, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('5b108057-edc0-44f2-b2f5-7c764e1a8c0c', '8ebd5024-5fb0-5776-9772-4d12c2ee69a1', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 1500, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('4d4ffea7-dbd3-4edc-992f-112802b4045b', '8ebd5024-5fb0-5776-9772-4d12c2ee69a1', 'ced652b2-494f-4017-a418-0386199b255d', 1500, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('be9661da-f8cc-49e2-8425-a8e84d4d8972', '340ab8d1-16f5-553a-9fa5-e5f1a506b3a4', '19357307-6a1e-57db-b8e3-b603ef232ad4', 3000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('66efca17-eb5c-44d2-b0be-7846d8ce4cd1', '340ab8d1-16f5-553a-9fa5-e5f1a506b3a4', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 3000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('9a25792b-6f29-4a1c-ba70-55c37491bca1', '340ab8d1-16f5-553a-9fa5-e5f1a506b3a4', 'ced652b2-494f-4017-a418-0386199b255d', 3000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('73d45ecb-9806-4a59-bc45-773a4750e28d', '340ab8d1-16f5-553a-9fa5-e5f1a506b3a4', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 3000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('7230de36-bd03-45f7-bf1e-42886a0bd18d', '3121b339-1d2f-5b7f-a210-866598f57394', '19357307-6a1e-57db-b8e3-b603ef232ad4', 333, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('1b98f8d5-3c88-4d3b-802f-e9ac1f5ea0ba', '3121b339-1d2f-5b7f-a210-866598f57394', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 333, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('b63791dd-142b-46b7-83bc-5f51882f5dab', '3121b339-1d2f-5b7f-a210-866598f57394', 'ced652b2-494f-4017-a418-0386199b255d', 334, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('7e3fbea7-83b1-4f2f-b965-1c9bc4619afa', '16af9374-2310-5da4-9c57-e22321f66025', '19357307-6a1e-57db-b8e3-b603ef232ad4', 1667, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('5e8a9ac0-1b38-4aa5-9d5d-168973431872', '16af9374-2310-5da4-9c57-e22321f66025', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 833, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('b050643f-f0a6-498c-b315-8c3ebae5f6ee', '467f7c4a-c50b-5c32-a133-05a6027c2071', 'ced652b2-494f-4017-a418-0386199b255d', 2500, true, 1795452724716, false);
INSERT INTO public.expense_splits VALUES ('498df23e-c130-45b9-8ecd-54064ca1606a', '24374f8e-070d-548a-b049-1c7e2adb91ae', 'ced652b2-494f-4017-a418-0386199b255d', 60000, true, 1795452724819, false);
INSERT INTO public.expense_splits VALUES ('f0940d12-1724-4ae5-95da-1d6426e3f40c', 'ca12702f-ea22-5770-8425-7c99aff8cad3', '19357307-6a1e-57db-b8e3-b603ef232ad4', 3334, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('f7fbb951-d710-4d59-a509-3acfbac2a411', '16af9374-2310-5da4-9c57-e22321f66025', 'ced652b2-494f-4017-a418-0386199b255d', 2500, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('bfcb127c-27ca-4bb3-bfc3-4638d7d66f97', '16af9374-2310-5da4-9c57-e22321f66025', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 1667, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('f4ff7a05-6e6c-40ce-ae24-fe1ee8dc2342', '3a139d29-bc05-546d-ace3-8d190eeba666', '19357307-6a1e-57db-b8e3-b603ef232ad4', 334, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('5fafe6aa-64d8-426d-94c5-dccc1f011ac5', '3a139d29-bc05-546d-ace3-8d190eeba666', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 333, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('f9c47249-5ac6-4cd4-915d-0d0ab70637c8', '3a139d29-bc05-546d-ace3-8d190eeba666', 'ced652b2-494f-4017-a418-0386199b255d', 333, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('d4280575-2044-402e-a394-c8bef5e7333c', '4ff5d128-008c-584c-9b3e-79496949688c', '1c4360b8-4ac0-4617-a29b-2b4290fc6017', 1020, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('d5e5128f-74a4-4b54-b1a6-cbd90fd8e276', '4ff5d128-008c-584c-9b3e-79496949688c', '55f9a7b1-8102-4153-a9ef-b24038d1b254', 1320, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('f83f2bf0-50c0-475e-bd27-3ac1aedb09cf', 'a18aaa3d-e1b3-5b02-81a9-13efee02a731', '19357307-6a1e-57db-b8e3-b603ef232ad4', 2100, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('f55506b6-daef-4ad3-997f-52f17aa48298', 'a18aaa3d-e1b3-5b02-81a9-13efee02a731', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 1100, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('41400d88-d869-444e-9c82-ce91ed780814', 'f19293ed-21e1-5cb9-b01d-a37d84d55c66', '19357307-6a1e-57db-b8e3-b603ef232ad4', 2500, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('e7f498a7-08b6-4a15-8b61-8f2aa4497c0d', 'f19293ed-21e1-5cb9-b01d-a37d84d55c66', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 1000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('88625576-f941-432a-8bd4-c9e718651ba6', '7068ab57-ca0e-5f7f-bffa-6eeeec8ce782', '19357307-6a1e-57db-b8e3-b603ef232ad4', 2000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('fce2bc41-6a23-46c8-a40e-97a20bfc70e1', '7068ab57-ca0e-5f7f-bffa-6eeeec8ce782', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 2000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('17433335-736a-4dac-bdb9-a8cf6191cae3', '7068ab57-ca0e-5f7f-bffa-6eeeec8ce782', 'ced652b2-494f-4017-a418-0386199b255d', 1500, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('ba609abf-a53f-47c9-b291-204c3cde268b', '7068ab57-ca0e-5f7f-bffa-6eeeec8ce782', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 2000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('15dc5a0b-9047-4dca-995b-f7fbc3b5039a', 'db20c29f-4d36-5a0e-a9bb-fa4ab15004e3', '1c4360b8-4ac0-4617-a29b-2b4290fc6017', 9000, false, NULL, false);
INSERT INTO public.expense_splits VALUES ('3971aef0-23be-49ef-95ee-d1ee89e15b26', 'db20c29f-4d36-5a0e-a9bb-fa4ab15004e3', '55f9a7b1-8102-4153-a9ef-b24038d1b254', 9000, false, NULL, false);
INSERT INTO public.expenses VALUES ('121a73fc-1259-58b4-8c80-b36de6f034f0', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Hotel Shinjuku, 3 nights', 100000, 'JPY', '4c23468e-6a8b-5e69-ab6c-04833285541c', '2026-04-29', '{"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 1, 1795452723914, 1795452723914);
INSERT INTO public.expenses VALUES ('5e90cd28-4cf1-5eb5-9d9b-8c5a6b209d67', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Pocket wifi', 10000, 'USD', 'd525f5ce-fe48-55ff-a8a4-41f17e176a4e', '2026-04-28', '{"mode":"percent","percents":[{"memberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250","percent":"33.33"},{"memberId":"ced652b2-494f-4017-a418-0386199b255d","percent":"33.33"},{"memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4","percent":"33.34"}]}', NULL, NULL, '2e2d0e15-d47e-40d4-9440-f508e77f8002', false, 1, 1795452723979, 1795452723979);
INSERT INTO public.expenses VALUES ('32f4b5ac-99e3-5c9f-906d-772cb9cc5bd1', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Izakaya night', 24001, 'JPY', 'e612ead9-452e-5b10-aada-ae98d89592f4', '2026-04-30', '{"mode":"shares","shares":[{"memberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250","shares":"1.5"},{"memberId":"ced652b2-494f-4017-a418-0386199b255d","shares":"1"},{"memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4","shares":"2.25"},{"memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe","shares":"0.75"}]}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 1, 1795452724012, 1795452724012);
INSERT INTO public.expenses VALUES ('aff10ad9-17e6-5c5d-91a1-56eae5f2be6d', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Sushi omakase', 18000, 'JPY', 'e612ead9-452e-5b10-aada-ae98d89592f4', '2026-05-01', '{"adjustments":[{"amount":"1500","memberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250"},{"amount":"-1000","memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe"}],"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"adjustment"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 1, 1795452724075, 1795452724075);
INSERT INTO public.expenses VALUES ('7ccb1ee4-0211-5726-a16b-f48e7e49e270', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Konbini run', 5640, 'JPY', 'cc3a491c-44ef-5bee-9f49-f1fcbddae573', '2026-05-01', '{"extras":[{"amount":"540","description":"Tax"},{"amount":"-300","description":"Coupon"}],"items":[{"amount":"3000","description":"Beer","split":{"memberIds":["ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}},{"amount":"2400","description":"Fruit","split":{"mode":"shares","shares":[{"memberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250","shares":"1"},{"memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe","shares":"2"}]}}],"mode":"itemized"}', NULL, NULL, '2e2d0e15-d47e-40d4-9440-f508e77f8002', false, 1, 1795452724107, 1795452724107);
INSERT INTO public.expenses VALUES ('723e1d40-0b74-5d23-858c-99c30bd8dcf6', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Shinkansen Tokyo–Osaka', 44000, 'JPY', '501de63a-fbc1-5107-a85f-08712b96cf6c', '2026-05-02', '{"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"equal"}', 132050, 'MYR', '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 1, 1795452724138, 1795452724138);
INSERT INTO public.expenses VALUES ('1c2ea3d9-364a-5fbe-a265-d4d29d58a9ca', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Gift for our host', 5000, 'USD', '85c02764-eaac-5fd3-8ee0-74d4f10d062c', '2026-05-02', '{"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 1, 1795452724170, 1795452724170);
INSERT INTO public.expenses VALUES ('3121b339-1d2f-5b7f-a210-866598f57394', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Coffee', 1000, 'USD', 'e612ead9-452e-5b10-aada-ae98d89592f4', '2026-05-03', '{"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}', NULL, NULL, '2e2d0e15-d47e-40d4-9440-f508e77f8002', false, 1, 1795452724293, 1795452724293);
INSERT INTO public.expenses VALUES ('16af9374-2310-5da4-9c57-e22321f66025', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Museum tickets', 6667, 'MYR', 'e51c7851-42ea-5516-97f9-23f58ec2f3d7', '2026-04-27', '{"mode":"percent","percents":[{"memberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250","percent":"12.5"},{"memberId":"ced652b2-494f-4017-a418-0386199b255d","percent":"37.5"},{"memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4","percent":"25"},{"memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe","percent":"25"}]}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 1, 1795452724324, 1795452724324);
INSERT INTO public.expenses VALUES ('a18aaa3d-e1b3-5b02-81a9-13efee02a731', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Ramen (seed shape)', 3200, 'JPY', 'e612ead9-452e-5b10-aada-ae98d89592f4', '2026-05-04', '{"amounts":[{"amount":"1100","memberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250"},{"amount":"2100","memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4"}],"mode":"exact"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 1, 1795452724356, 1795452724356);
INSERT INTO public.expenses VALUES ('8ebd5024-5fb0-5776-9772-4d12c2ee69a1', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Taxi to KLIA (entered twice)', 4500, 'MYR', '0d2f7404-f335-5b83-961e-51ecb541a421', '2026-04-28', '{"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', true, 2, 1795452724236, 1795452724583);
INSERT INTO public.expenses VALUES ('467f7c4a-c50b-5c32-a133-05a6027c2071', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Dinner at Ichiran', 9000, 'JPY', 'e612ead9-452e-5b10-aada-ae98d89592f4', '2026-04-29', '{"amounts":[{"amount":"3000","memberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250"},{"amount":"2500","memberId":"ced652b2-494f-4017-a418-0386199b255d"},{"amount":"2000","memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4"},{"amount":"1500","memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe"}],"mode":"exact"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 2, 1795452723946, 1795452724716);
INSERT INTO public.expenses VALUES ('340ab8d1-16f5-553a-9fa5-e5f1a506b3a4', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Karaoke', 12000, 'JPY', 'd525f5ce-fe48-55ff-a8a4-41f17e176a4e', '2026-05-03', '{"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"equal"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 3, 1795452724263, 1795452724646);
INSERT INTO public.expenses VALUES ('24374f8e-070d-548a-b049-1c7e2adb91ae', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Flights KUL–NRT', 240000, 'MYR', '0d2f7404-f335-5b83-961e-51ecb541a421', '2026-04-28', '{"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"equal"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 2, 1795452723871, 1795452724819);
INSERT INTO public.expenses VALUES ('ca12702f-ea22-5770-8425-7c99aff8cad3', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Taxi to KLIA', 10000, 'MYR', '0d2f7404-f335-5b83-961e-51ecb541a421', '2026-04-28', '{"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 3, 1795452724043, 1795452724786);
INSERT INTO public.expenses VALUES ('f19293ed-21e1-5cb9-b01d-a37d84d55c66', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'KitKat souvenirs', 3500, 'JPY', '85c02764-eaac-5fd3-8ee0-74d4f10d062c', '2026-05-05', '{"mode":"shares","shares":[{"memberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250","shares":"0.5"},{"memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4","shares":"1.25"}]}', NULL, NULL, '29a9bd93-d557-41f0-99f8-9e67e60147f9', false, 1, 1795452724406, 1795452724406);
INSERT INTO public.expenses VALUES ('7068ab57-ca0e-5f7f-bffa-6eeeec8ce782', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Onsen day pass', 7500, 'JPY', 'd525f5ce-fe48-55ff-a8a4-41f17e176a4e', '2026-05-03', '{"adjustments":[{"amount":"-500","memberId":"ced652b2-494f-4017-a418-0386199b255d"}],"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"adjustment"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 3, 1795452724201, 1795452724540);
INSERT INTO public.expenses VALUES ('db20c29f-4d36-5a0e-a9bb-fa4ab15004e3', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'Chilli crab', 18000, 'SGD', '401c83fa-efbc-5357-b6be-3781d739228e', '2026-06-13', '{"memberIds":["1c4360b8-4ac0-4617-a29b-2b4290fc6017","55f9a7b1-8102-4153-a9ef-b24038d1b254"],"mode":"equal"}', NULL, NULL, '2e2d0e15-d47e-40d4-9440-f508e77f8002', false, 1, 1795452725040, 1795452725040);
INSERT INTO public.expenses VALUES ('3a139d29-bc05-546d-ace3-8d190eeba666', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Ferry to Miyajima', 1000, 'JPY', '0d2f7404-f335-5b83-961e-51ecb541a421', '2026-05-05', '{"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4"],"mode":"equal"}', NULL, NULL, '29a9bd93-d557-41f0-99f8-9e67e60147f9', false, 1, 1795452724437, 1795452724437);
INSERT INTO public.expenses VALUES ('4ff5d128-008c-584c-9b3e-79496949688c', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'Hawker centre', 2340, 'SGD', '401c83fa-efbc-5357-b6be-3781d739228e', '2026-06-14', '{"amounts":[{"amount":"10.20","memberId":"1c4360b8-4ac0-4617-a29b-2b4290fc6017"},{"amount":"13.20","memberId":"55f9a7b1-8102-4153-a9ef-b24038d1b254"}],"mode":"exact"}', NULL, NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 1, 1795452725062, 1795452725062);
INSERT INTO public.groups VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'Japan 2026 🗾', 'Golden Week: KL → Tokyo → Osaka
Settle by June.', 'MYR', '9fbd3d35-caee-420b-8e93-d069552f6c08', 'cnpjawnp4rr54f2suvym', false, 3, 1795452723648, 1795452724990, 48);
INSERT INTO public.groups VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'Singapore weekend', '', 'SGD', '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'jnq2yjtgfyqex5v9wsbn', false, 1, 1795452725002, 1795452725002, 4);
INSERT INTO public.idempotency_keys VALUES ('9fbd3d35-caee-420b-8e93-d069552f6c08', 'fixture-flight', '6ec71284b07b47fd3f99651bdf367f2ea99a01e69de9078003fb77a0174f4761', 201, '{"expense":{"amount":"2400.00","category":"0d2f7404-f335-5b83-961e-51ecb541a421","categoryName":"Transport","createdAt":"2026-11-23T16:52:03Z","createdByUserId":"9fbd3d35-caee-420b-8e93-d069552f6c08","currency":"MYR","description":"Flights KUL–NRT","expenseDate":"2026-04-28","groupId":"de012bda-f01c-51ea-956e-25ceda9d7a6e","id":"24374f8e-070d-548a-b049-1c7e2adb91ae","isDeleted":false,"payers":[{"amount":"2400.00","memberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250"}],"split":{"memberIds":["bcb397a9-f0d7-440d-9fd1-4175a40d2250","ced652b2-494f-4017-a418-0386199b255d","19357307-6a1e-57db-b8e3-b603ef232ad4","e6b68adb-5b9a-5058-a391-c875441a07fe"],"mode":"equal"},"splits":[{"amount":"600.00","id":"f3366a17-777e-4f39-9664-cf36c45bcc8a","isPaid":false,"memberId":"19357307-6a1e-57db-b8e3-b603ef232ad4"},{"amount":"600.00","id":"f337c057-af73-4291-bebe-d259818a058f","isPaid":false,"memberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250"},{"amount":"600.00","id":"498df23e-c130-45b9-8ecd-54064ca1606a","isPaid":false,"memberId":"ced652b2-494f-4017-a418-0386199b255d"},{"amount":"600.00","id":"cae83767-9e6d-47ae-bc0d-f471770a35ae","isPaid":false,"memberId":"e6b68adb-5b9a-5058-a391-c875441a07fe"}],"updatedAt":"2026-11-23T16:52:03Z","version":1}}', 1795452723871);
INSERT INTO public.idempotency_keys VALUES ('2e2d0e15-d47e-40d4-9440-f508e77f8002', 'fixture-bo-aki', 'b27cf41e9bea808b06161df2007cf5aa59f6154f6199ba7c61d1ce6832a047d1', 201, '{"settlement":{"amount":"200.00","createdAt":"2026-11-23T16:52:04Z","createdByUserId":"2e2d0e15-d47e-40d4-9440-f508e77f8002","currency":"MYR","date":"2026-05-06","fromMemberId":"ced652b2-494f-4017-a418-0386199b255d","groupId":"de012bda-f01c-51ea-956e-25ceda9d7a6e","id":"c6604a33-fb0e-55ee-b0c5-e30ab840952a","isDeleted":false,"note":"Bank transfer","toMemberId":"bcb397a9-f0d7-440d-9fd1-4175a40d2250","version":1}}', 1795452724847);
INSERT INTO public.members VALUES ('bcb397a9-f0d7-440d-9fd1-4175a40d2250', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'owner', true, true, true, true, true, 1, 1795452723648, 1795452723648);
INSERT INTO public.members VALUES ('ced652b2-494f-4017-a418-0386199b255d', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo', 'admin', true, true, true, true, true, 2, 1795452723742, 1795452724914);
INSERT INTO public.members VALUES ('19357307-6a1e-57db-b8e3-b603ef232ad4', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', '29a9bd93-d557-41f0-99f8-9e67e60147f9', 'Chen', 'member', true, true, false, false, true, 3, 1795452723687, 1795452724929);
INSERT INTO public.members VALUES ('e6b68adb-5b9a-5058-a391-c875441a07fe', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', NULL, 'Dee (cousin)', 'member', false, true, false, true, true, 2, 1795452723708, 1795452724944);
INSERT INTO public.members VALUES ('a2e9431e-a00f-5fc7-a77d-3e505eb8ba3b', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', NULL, 'Eve', 'member', true, true, false, true, false, 2, 1795452723726, 1795452724959);
INSERT INTO public.members VALUES ('55f9a7b1-8102-4153-a9ef-b24038d1b254', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo B.', 'owner', true, true, true, true, true, 1, 1795452725002, 1795452725002);
INSERT INTO public.members VALUES ('1c4360b8-4ac0-4617-a29b-2b4290fc6017', '14fd82f0-cdfa-506c-b703-81e6cbf5791d', '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 'member', true, true, false, true, true, 1, 1795452725026, 1795452725026);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'JPY', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'e6b68adb-5b9a-5058-a391-c875441a07fe', -3273);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'JPY', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 'e6b68adb-5b9a-5058-a391-c875441a07fe', -17875);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'MYR', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 'e6b68adb-5b9a-5058-a391-c875441a07fe', -58334);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'MYR', 'ced652b2-494f-4017-a418-0386199b255d', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 3333);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'USD', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 1667);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'USD', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 1666);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'USD', 'ced652b2-494f-4017-a418-0386199b255d', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 1667);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'JPY', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'ced652b2-494f-4017-a418-0386199b255d', 6837);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'USD', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'ced652b2-494f-4017-a418-0386199b255d', 3667);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'USD', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 'ced652b2-494f-4017-a418-0386199b255d', 3666);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'MYR', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 61667);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'JPY', 'ced652b2-494f-4017-a418-0386199b255d', 'e6b68adb-5b9a-5058-a391-c875441a07fe', -4371);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'JPY', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 'ced652b2-494f-4017-a418-0386199b255d', -13040);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'MYR', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 3334);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'MYR', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 'ced652b2-494f-4017-a418-0386199b255d', 17500);
INSERT INTO public.pair_debts VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'JPY', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 37063);
INSERT INTO public.pair_debts VALUES ('14fd82f0-cdfa-506c-b703-81e6cbf5791d', 'SGD', '1c4360b8-4ac0-4617-a29b-2b4290fc6017', '55f9a7b1-8102-4153-a9ef-b24038d1b254', 7680);
INSERT INTO public.payment_history VALUES ('0708db0f-dcd5-41f9-82ed-8c009ee6625c', 'b050643f-f0a6-498c-b315-8c3ebae5f6ee', 'marked_paid', '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 1795452724716, 36, 'Paid in cash at the counter', '127.0.0.1', 'make-upgrade-fixture');
INSERT INTO public.payment_history VALUES ('09570a78-110f-4fad-b47d-a3cfd8e5f40d', 'f0940d12-1724-4ae5-95da-1d6426e3f40c', 'marked_paid', '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 1795452724756, 37, 'Bank transfer', '127.0.0.1', 'make-upgrade-fixture');
INSERT INTO public.payment_history VALUES ('653b9717-b912-4677-b6be-147ee75337ca', 'f0940d12-1724-4ae5-95da-1d6426e3f40c', 'marked_unpaid', '9fbd3d35-caee-420b-8e93-d069552f6c08', 'Aki', 1795452724786, 38, 'Wrong person: it was Bo who paid', '127.0.0.1', 'make-upgrade-fixture');
INSERT INTO public.payment_history VALUES ('825f677f-1f95-4c4a-b46a-66ba5a6a795b', '498df23e-c130-45b9-8ecd-54064ca1606a', 'marked_paid', '2e2d0e15-d47e-40d4-9440-f508e77f8002', 'Bo', 1795452724819, 39, 'DuitNow transfer', '127.0.0.1', 'make-upgrade-fixture');
INSERT INTO public.rates VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'JPY', 'MYR', '2026-04-28', '0.0305', '9fbd3d35-caee-420b-8e93-d069552f6c08', 1795452723846);
INSERT INTO public.rates VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'JPY', 'MYR', '2026-05-02', '0.03125', '9fbd3d35-caee-420b-8e93-d069552f6c08', 1795452723846);
INSERT INTO public.rates VALUES ('de012bda-f01c-51ea-956e-25ceda9d7a6e', 'USD', 'MYR', '2026-04-28', '4.4725', '9fbd3d35-caee-420b-8e93-d069552f6c08', 1795452723846);
INSERT INTO public.schema_migrations VALUES ('0001_accounts', 1795452721486);
INSERT INTO public.schema_migrations VALUES ('0002_groups_and_members', 1795452721507);
INSERT INTO public.schema_migrations VALUES ('0003_auth_attempts', 1795452721514);
INSERT INTO public.schema_migrations VALUES ('0004_one_owner_per_group', 1795452721520);
INSERT INTO public.schema_migrations VALUES ('0005_expenses_and_ledger', 1795452721569);
INSERT INTO public.schema_migrations VALUES ('0006_pairwise_ledger', 1795452721581);
INSERT INTO public.sessions VALUES ('c548ad1d-726d-4b74-b19d-6694fc4b65a6', '9fbd3d35-caee-420b-8e93-d069552f6c08', '9b4a3a99b43461a90c923ff7e29d690754d09e68d48b268295230c96522d3112', 'fixture-aki', 'make-upgrade-fixture', '127.0.0.1', 1795452722747, 1795452722747, 1798044722747, 1795452725080);
INSERT INTO public.sessions VALUES ('1e583958-5d9d-4d04-91a5-fd8eb1031ea6', '2e2d0e15-d47e-40d4-9440-f508e77f8002', '4c38cfbfc266c025f2a29b2c33f55b1515046c112208df4bf79362bd27b98f9c', 'fixture-bo', 'make-upgrade-fixture', '127.0.0.1', 1795452723199, 1795452723199, 1798044723199, 1795452725088);
INSERT INTO public.sessions VALUES ('e6698ff2-2e89-459b-a792-ab07feb13f0c', '29a9bd93-d557-41f0-99f8-9e67e60147f9', '87768fd95f670d16cc06ae013d7529c51fe935feda1b0a144868dafb8993437f', 'fixture-chen', 'make-upgrade-fixture', '127.0.0.1', 1795452723635, 1795452723635, 1798044723635, 1795452725096);
INSERT INTO public.settlements VALUES ('2c640aa9-d61b-401d-bef1-db0fb39ffca2', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'ced652b2-494f-4017-a418-0386199b255d', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 2500, 'JPY', '2026-11-23', 'Share of Dinner at Ichiran', 'b050643f-f0a6-498c-b315-8c3ebae5f6ee', '9fbd3d35-caee-420b-8e93-d069552f6c08', false, 1, 1795452724716, 1795452724716);
INSERT INTO public.settlements VALUES ('ee99468e-552e-4912-98ba-00d19f7134cf', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'e6b68adb-5b9a-5058-a391-c875441a07fe', 3334, 'MYR', '2026-11-23', 'Share of Taxi to KLIA', 'f0940d12-1724-4ae5-95da-1d6426e3f40c', '9fbd3d35-caee-420b-8e93-d069552f6c08', true, 2, 1795452724756, 1795452724786);
INSERT INTO public.settlements VALUES ('32aeb7c6-c2db-4163-99f9-ff60363c9c85', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'ced652b2-494f-4017-a418-0386199b255d', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 60000, 'MYR', '2026-11-23', 'Share of Flights KUL–NRT', '498df23e-c130-45b9-8ecd-54064ca1606a', '2e2d0e15-d47e-40d4-9440-f508e77f8002', false, 1, 1795452724819, 1795452724819);
INSERT INTO public.settlements VALUES ('c6604a33-fb0e-55ee-b0c5-e30ab840952a', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', 'ced652b2-494f-4017-a418-0386199b255d', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 20000, 'MYR', '2026-05-06', 'Bank transfer', NULL, '2e2d0e15-d47e-40d4-9440-f508e77f8002', false, 1, 1795452724847, 1795452724847);
INSERT INTO public.settlements VALUES ('3949d9a8-bd58-57d6-a9ba-b27623117752', 'de012bda-f01c-51ea-956e-25ceda9d7a6e', '19357307-6a1e-57db-b8e3-b603ef232ad4', 'bcb397a9-f0d7-440d-9fd1-4175a40d2250', 5000, 'JPY', '2026-05-06', 'Cash (recorded by mistake)', NULL, '9fbd3d35-caee-420b-8e93-d069552f6c08', true, 2, 1795452724873, 1795452724896);
INSERT INTO public.users VALUES ('9fbd3d35-caee-420b-8e93-d069552f6c08', 'aki@example.com', NULL, 'Aki', '$2b$12$N45eZV7.EHl7wqXuqQeYoOdk9pStW347p2vxNfWboXsC.GqQLZKCO', true, 1, 1795452722314, 1795452722314);
INSERT INTO public.users VALUES ('2e2d0e15-d47e-40d4-9440-f508e77f8002', 'bo@example.com', NULL, 'Bo', '$2b$12$pejH90qRGI/51/5YgOulYePXZ/3GWMZC.Hxewu5p6qgVR5lIaVD.q', true, 1, 1795452722763, 1795452722763);
INSERT INTO public.users VALUES ('29a9bd93-d557-41f0-99f8-9e67e60147f9', 'chen@example.com', NULL, 'Chen Wei', '$2b$12$094A4YeAcnOo7I65b263DO5gNDN4B72bNq/6keOK5eA9kOQfL1YNK', true, 1, 1795452723211, 1795452723211);
ALTER TABLE ONLY public.activity
    ADD CONSTRAINT activity_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.auth_attempts
    ADD CONSTRAINT auth_attempts_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.balances
    ADD CONSTRAINT balances_pkey PRIMARY KEY (group_id, member_id, currency);
ALTER TABLE ONLY public.categories
    ADD CONSTRAINT categories_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.changes
    ADD CONSTRAINT changes_pkey PRIMARY KEY (group_id, entity, entity_id);
ALTER TABLE ONLY public.expense_payers
    ADD CONSTRAINT expense_payers_pkey PRIMARY KEY (expense_id, member_id);
ALTER TABLE ONLY public.expense_splits
    ADD CONSTRAINT expense_splits_expense_id_member_id_key UNIQUE (expense_id, member_id);
ALTER TABLE ONLY public.expense_splits
    ADD CONSTRAINT expense_splits_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.expenses
    ADD CONSTRAINT expenses_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.groups
    ADD CONSTRAINT groups_invite_code_key UNIQUE (invite_code);
ALTER TABLE ONLY public.groups
    ADD CONSTRAINT groups_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (user_id, key);
ALTER TABLE ONLY public.members
    ADD CONSTRAINT members_group_id_user_id_key UNIQUE (group_id, user_id);
ALTER TABLE ONLY public.members
    ADD CONSTRAINT members_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.pair_debts
    ADD CONSTRAINT pair_debts_pkey PRIMARY KEY (group_id, currency, lower_member_id, higher_member_id);
ALTER TABLE ONLY public.payment_history
    ADD CONSTRAINT payment_history_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.rates
    ADD CONSTRAINT rates_pkey PRIMARY KEY (group_id, from_currency, to_currency, rate_date);
ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_token_hash_key UNIQUE (token_hash);
ALTER TABLE ONLY public.settlements
    ADD CONSTRAINT settlements_pkey PRIMARY KEY (id);
ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_email_key UNIQUE (email);
ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_phone_key UNIQUE (phone);
ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);
CREATE INDEX activity_by_group ON public.activity USING btree (group_id, seq);
CREATE INDEX auth_attempts_by_subject ON public.auth_attempts USING btree (scope, subject, at);
CREATE INDEX auth_attempts_by_time ON public.auth_attempts USING btree (at);
CREATE INDEX categories_by_group ON public.categories USING btree (group_id);
CREATE INDEX changes_by_seq ON public.changes USING btree (group_id, seq);
CREATE INDEX expense_payers_by_member ON public.expense_payers USING btree (member_id);
CREATE INDEX expense_splits_by_member ON public.expense_splits USING btree (member_id);
CREATE INDEX expenses_by_group ON public.expenses USING btree (group_id, expense_date, id);
CREATE INDEX members_by_user ON public.members USING btree (user_id);
CREATE UNIQUE INDEX members_one_owner ON public.members USING btree (group_id) WHERE (role = 'owner'::text);
CREATE INDEX payment_history_by_split ON public.payment_history USING btree (expense_split_id, seq);
CREATE INDEX sessions_by_user ON public.sessions USING btree (user_id);
CREATE INDEX settlements_by_group ON public.settlements USING btree (group_id, created_at);
CREATE INDEX settlements_by_split ON public.settlements USING btree (expense_split_id);
ALTER TABLE ONLY public.activity
    ADD CONSTRAINT activity_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id);
ALTER TABLE ONLY public.balances
    ADD CONSTRAINT balances_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id);
ALTER TABLE ONLY public.balances
    ADD CONSTRAINT balances_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.members(id);
ALTER TABLE ONLY public.categories
    ADD CONSTRAINT categories_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id);
ALTER TABLE ONLY public.changes
    ADD CONSTRAINT changes_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id);
ALTER TABLE ONLY public.expense_payers
    ADD CONSTRAINT expense_payers_expense_id_fkey FOREIGN KEY (expense_id) REFERENCES public.expenses(id);
ALTER TABLE ONLY public.expense_payers
    ADD CONSTRAINT expense_payers_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.members(id);
ALTER TABLE ONLY public.expense_splits
    ADD CONSTRAINT expense_splits_expense_id_fkey FOREIGN KEY (expense_id) REFERENCES public.expenses(id);
ALTER TABLE ONLY public.expense_splits
    ADD CONSTRAINT expense_splits_member_id_fkey FOREIGN KEY (member_id) REFERENCES public.members(id);
ALTER TABLE ONLY public.expenses
    ADD CONSTRAINT expenses_category_id_fkey FOREIGN KEY (category_id) REFERENCES public.categories(id);
ALTER TABLE ONLY public.expenses
    ADD CONSTRAINT expenses_created_by_user_id_fkey FOREIGN KEY (created_by_user_id) REFERENCES public.users(id);
ALTER TABLE ONLY public.expenses
    ADD CONSTRAINT expenses_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id);
ALTER TABLE ONLY public.groups
    ADD CONSTRAINT groups_owner_user_id_fkey FOREIGN KEY (owner_user_id) REFERENCES public.users(id);
ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id);
ALTER TABLE ONLY public.members
    ADD CONSTRAINT members_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id);
ALTER TABLE ONLY public.members
    ADD CONSTRAINT members_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id);
ALTER TABLE ONLY public.pair_debts
    ADD CONSTRAINT pair_debts_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id);
ALTER TABLE ONLY public.pair_debts
    ADD CONSTRAINT pair_debts_higher_member_id_fkey FOREIGN KEY (higher_member_id) REFERENCES public.members(id);
ALTER TABLE ONLY public.pair_debts
    ADD CONSTRAINT pair_debts_lower_member_id_fkey FOREIGN KEY (lower_member_id) REFERENCES public.members(id);
ALTER TABLE ONLY public.payment_history
    ADD CONSTRAINT payment_history_expense_split_id_fkey FOREIGN KEY (expense_split_id) REFERENCES public.expense_splits(id);
ALTER TABLE ONLY public.payment_history
    ADD CONSTRAINT payment_history_performed_by_user_id_fkey FOREIGN KEY (performed_by_user_id) REFERENCES public.users(id);
ALTER TABLE ONLY public.rates
    ADD CONSTRAINT rates_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id);
ALTER TABLE ONLY public.rates
    ADD CONSTRAINT rates_updated_by_user_id_fkey FOREIGN KEY (updated_by_user_id) REFERENCES public.users(id);
ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id);
ALTER TABLE ONLY public.settlements
    ADD CONSTRAINT settlements_created_by_user_id_fkey FOREIGN KEY (created_by_user_id) REFERENCES public.users(id);
ALTER TABLE ONLY public.settlements
    ADD CONSTRAINT settlements_expense_split_id_fkey FOREIGN KEY (expense_split_id) REFERENCES public.expense_splits(id);
ALTER TABLE ONLY public.settlements
    ADD CONSTRAINT settlements_from_member_id_fkey FOREIGN KEY (from_member_id) REFERENCES public.members(id);
ALTER TABLE ONLY public.settlements
    ADD CONSTRAINT settlements_group_id_fkey FOREIGN KEY (group_id) REFERENCES public.groups(id);
ALTER TABLE ONLY public.settlements
    ADD CONSTRAINT settlements_to_member_id_fkey FOREIGN KEY (to_member_id) REFERENCES public.members(id);
