import type { Random } from './random'

const SURNAMES = [
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤',
]
const GIVEN = [...'伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂华玉萍红娥玲芬燕彬鹏辉俊浩宇欣怡子涵梓轩思远雨婷嘉琪博文晨曦一鸣佳']

export const DEPARTMENTS = ['Engineering', 'Sales', 'Marketing', 'Finance', 'Human Resources', 'Operations', 'Customer Service', 'Legal']
/** share of employees per department, in the order above */
export const DEPARTMENT_WEIGHTS = [30, 20, 8, 6, 4, 18, 12, 2]

const POSITIONS: Record<string, string[]> = {
  Engineering: ['Software Engineer', 'Senior Software Engineer', 'QA Engineer', 'Engineering Manager', 'DevOps Engineer'],
  Sales: ['Sales Representative', 'Account Manager', 'Sales Director'],
  Marketing: ['Marketing Specialist', 'Content Editor', 'Brand Manager'],
  Finance: ['Accountant', 'Financial Analyst', 'Cashier'],
  'Human Resources': ['HR Specialist', 'Recruiter', 'HR Manager'],
  Operations: ['Operations Specialist', 'Warehouse Supervisor', 'Logistics Coordinator'],
  'Customer Service': ['Support Agent', 'Support Team Lead'],
  Legal: ['Legal Counsel', 'Paralegal'],
}

export function personName(random: Random): string {
  const given = random.pick(GIVEN) + (random.chance(0.6) ? random.pick(GIVEN) : '')
  return random.pick(SURNAMES) + given
}

export function positionIn(random: Random, department: string): string {
  return random.pick(POSITIONS[department])
}
