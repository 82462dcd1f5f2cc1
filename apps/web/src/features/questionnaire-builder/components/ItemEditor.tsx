import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../../lib/ui-state';
import { conditionSources, type DraftCondition, type DraftItem, draftTypes, freshId } from '../lib/draft';
import { BilingualField } from './BilingualField';

/** One question (or section) of the editor: its words in both languages and what its type needs. */
export function ItemEditor({
  items,
  index,
  onChange,
  onMove,
  onRemove,
}: {
  items: readonly DraftItem[];
  index: number;
  onChange: (next: DraftItem) => void;
  onMove: (step: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const item = items[index];
  if (item === undefined) {
    return null;
  }
  const isSection = item.type === 'section';
  const isChoice = item.type === 'choice' || item.type === 'multipleChoice';
  const isNumber = item.type === 'integer' || item.type === 'decimal';
  const name = item.es.trim() || t('questionnaireBuilder.item.untitled', { number: index + 1 });
  const set = (patch: Partial<DraftItem>) => onChange({ ...item, ...patch });

  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      bg={isSection ? 'gray.0' : undefined}
      data-testid="builder-item"
      data-type={item.type}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <NativeSelect
            aria-label={t('questionnaireBuilder.item.type', { name })}
            value={item.type}
            data={draftTypes.map((type) => ({ value: type, label: t(`questionnaireBuilder.types.${type}`) }))}
            onChange={(event) => {
              const type = event.currentTarget.value as DraftItem['type'];
              const wantsOptions = type === 'choice' || type === 'multipleChoice';
              set({
                type,
                options:
                  wantsOptions && item.options.length === 0
                    ? [{ code: freshId('o'), es: '', en: '' }]
                    : item.options,
                min: type === 'scale' ? 0 : item.min,
                max: type === 'scale' ? 10 : item.max,
              });
            }}
            style={{ flex: '1 1 auto', minWidth: 0, maxWidth: 260 }}
          />
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('questionnaireBuilder.item.moveUp', { name })}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            >
              <IconArrowUp size={18} />
            </ActionIcon>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('questionnaireBuilder.item.moveDown', { name })}
              disabled={index === items.length - 1}
              onClick={() => onMove(1)}
            >
              <IconArrowDown size={18} />
            </ActionIcon>
            <ActionIcon
              variant="default"
              color="red"
              size="lg"
              aria-label={t('questionnaireBuilder.item.remove', { name })}
              onClick={onRemove}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Group>
        </Group>
        <BilingualField
          label={
            isSection ? t('questionnaireBuilder.item.sectionTitle') : t('questionnaireBuilder.item.question')
          }
          es={item.es}
          en={item.en}
          onChange={({ es, en }) => set({ es, en })}
        />
        {isChoice ? <OptionsEditor item={item} onChange={set} /> : null}
        {isNumber ? (
          <>
            <BilingualField
              label={t('questionnaireBuilder.item.unit')}
              es={item.unitEs}
              en={item.unitEn}
              onChange={({ es, en }) => set({ unitEs: es, unitEn: en })}
            />
            <Group grow gap="sm">
              <NumberInput
                label={t('questionnaireBuilder.item.min')}
                value={item.min ?? ''}
                allowDecimal={item.type === 'decimal'}
                onChange={(value) => set({ min: typeof value === 'number' ? value : null })}
              />
              <NumberInput
                label={t('questionnaireBuilder.item.max')}
                value={item.max ?? ''}
                allowDecimal={item.type === 'decimal'}
                onChange={(value) => set({ max: typeof value === 'number' ? value : null })}
              />
            </Group>
          </>
        ) : null}
        {item.type === 'scale' ? (
          <Text size="sm" c="gray.7">
            {t('questionnaireBuilder.item.scaleHint')}
          </Text>
        ) : null}
        {isSection ? (
          <Text size="sm" c="gray.7">
            {t('questionnaireBuilder.item.sectionHint')}
          </Text>
        ) : (
          <Switch
            label={t('questionnaireBuilder.item.required')}
            checked={item.required}
            onChange={(event) => set({ required: event.currentTarget.checked })}
          />
        )}
        <ConditionEditor items={items} index={index} onChange={(condition) => set({ condition })} />
      </Stack>
    </Card>
  );
}

function OptionsEditor({
  item,
  onChange,
}: {
  item: DraftItem;
  onChange: (patch: Partial<DraftItem>) => void;
}) {
  const { t } = useTranslation();
  const setOption = (position: number, words: { es: string; en: string }) =>
    onChange({
      options: item.options.map((option, at) => (at === position ? { ...option, ...words } : option)),
    });
  return (
    <Stack gap="xs" data-testid="builder-options">
      <Text size="sm" fw={600}>
        {item.type === 'multipleChoice'
          ? t('questionnaireBuilder.item.optionsMultiple')
          : t('questionnaireBuilder.item.optionsSingle')}
      </Text>
      {item.options.map((option, position) => (
        <Group key={option.code} align="flex-end" wrap="nowrap" gap="xs">
          <div style={{ flex: 1, minWidth: 0 }}>
            <BilingualField
              label={t('questionnaireBuilder.item.option', { number: position + 1 })}
              es={option.es}
              en={option.en}
              onChange={(words) => setOption(position, words)}
            />
          </div>
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            mb={4}
            aria-label={t('questionnaireBuilder.item.removeOption', { number: position + 1 })}
            onClick={() => onChange({ options: item.options.filter((_, at) => at !== position) })}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Button
        variant="subtle"
        leftSection={<IconPlus size={16} />}
        onClick={() => onChange({ options: [...item.options, { code: freshId('o'), es: '', en: '' }] })}
        style={{ alignSelf: 'flex-start' }}
      >
        {t('questionnaireBuilder.item.addOption')}
      </Button>
    </Stack>
  );
}

/** "Show only when": an earlier question and the answer that calls for this one. */
function ConditionEditor({
  items,
  index,
  onChange,
}: {
  items: readonly DraftItem[];
  index: number;
  onChange: (condition: DraftCondition | null) => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const item = items[index];
  const sources = conditionSources(items, index);
  const condition = item?.condition ?? null;
  const source = sources.find((candidate) => candidate.linkId === condition?.question);
  const label = (candidate: DraftItem) =>
    (language === 'en' ? candidate.en : candidate.es).trim() ||
    t('questionnaireBuilder.item.untitled', { number: items.indexOf(candidate) + 1 });
  if (sources.length === 0 && condition === null) {
    return null;
  }
  const answers =
    source === undefined
      ? []
      : source.type === 'boolean'
        ? [
            { value: 'true', label: t('questionnaireBuilder.condition.yes') },
            { value: 'false', label: t('questionnaireBuilder.condition.no') },
          ]
        : source.type === 'choice' || source.type === 'multipleChoice'
          ? source.options.map((option) => ({
              value: option.code,
              label: (language === 'en' ? option.en : option.es) || '…',
            }))
          : null;
  return (
    <Stack gap="xs" data-testid="builder-condition">
      <NativeSelect
        label={t('questionnaireBuilder.condition.label')}
        value={condition?.question ?? ''}
        data={[
          { value: '', label: t('questionnaireBuilder.condition.always') },
          ...sources.map((candidate) => ({ value: candidate.linkId, label: label(candidate) })),
        ]}
        onChange={(event) => {
          const question = event.currentTarget.value;
          onChange(question === '' ? null : { question, operator: '=', answer: '' });
        }}
      />
      {condition !== null && answers !== null ? (
        <NativeSelect
          label={t('questionnaireBuilder.condition.answer')}
          value={condition.answer}
          data={[{ value: '', label: t('questionnaireBuilder.condition.pick') }, ...answers]}
          onChange={(event) => onChange({ ...condition, operator: '=', answer: event.currentTarget.value })}
        />
      ) : null}
      {condition !== null && answers === null ? (
        <Group grow gap="sm">
          <NativeSelect
            label={t('questionnaireBuilder.condition.operator')}
            value={condition.operator}
            data={(['=', '>=', '<='] as const).map((operator) => ({
              value: operator,
              label: t(
                `questionnaireBuilder.condition.operators.${operator === '=' ? 'equal' : operator === '>=' ? 'atLeast' : 'atMost'}`,
              ),
            }))}
            onChange={(event) =>
              onChange({ ...condition, operator: event.currentTarget.value as DraftCondition['operator'] })
            }
          />
          <NumberInput
            label={t('questionnaireBuilder.condition.value')}
            value={condition.answer === '' ? '' : Number(condition.answer)}
            onChange={(value) =>
              onChange({ ...condition, answer: typeof value === 'number' ? String(value) : '' })
            }
          />
        </Group>
      ) : null}
    </Stack>
  );
}
